func.func @conv2d_window_too_large(%x: tensor<1x3x8x4xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 1, 2>} : (tensor<1x3x8x4xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x1xf32>
  return
}
