func.func @conv2d_weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  %0 = kiln.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}
