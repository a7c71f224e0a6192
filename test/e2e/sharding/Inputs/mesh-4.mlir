// A model that states its mesh: 4 tensor-parallel ranks.
kiln.mesh @mesh axes ["tensor"] shape [4]
func.func @f(%x: tensor<4x8xf32> {kiln.shard = #kiln.sharding<split 0 over "tensor">}) -> tensor<4x8xf32> {
  %y = kiln.relu %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
