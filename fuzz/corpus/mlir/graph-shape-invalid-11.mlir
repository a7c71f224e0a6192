func.func @broadcast_rank_decrease(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  %0 = kiln.broadcast %x : tensor<1x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
