func.func @global_pool_bool(%x: tensor<1x8x4x4xi1>) {
  %0 = kiln.global_max_pool %x : tensor<1x8x4x4xi1> -> tensor<1x8x1x1xi1>
  return
}
