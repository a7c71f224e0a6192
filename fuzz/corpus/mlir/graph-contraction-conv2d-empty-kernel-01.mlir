func.func @conv2d_empty_kernel_dilated(%x: tensor<1x4x3x3xf32>, %w: tensor<4x4x0x0xf32>) -> tensor<1x4x5x5xf32> {
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x4x0x0xf32>) -> tensor<1x4x5x5xf32>
  return %0 : tensor<1x4x5x5xf32>
}
