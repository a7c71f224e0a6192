func.func @conv2d_rank_input(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = kiln.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}
