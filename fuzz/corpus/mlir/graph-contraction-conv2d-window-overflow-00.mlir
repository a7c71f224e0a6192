func.func @conv2d_dilation_overflow(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x10x6xf32> {
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 9223372036854775807, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x10x6xf32>
  return %0 : tensor<1x4x10x6xf32>
}
