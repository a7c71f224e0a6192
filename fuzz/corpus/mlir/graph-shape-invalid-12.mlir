func.func @broadcast_left_aligned(%x: tensor<3xf32>) -> tensor<3x4xf32> {
  %0 = kiln.broadcast %x : tensor<3xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
