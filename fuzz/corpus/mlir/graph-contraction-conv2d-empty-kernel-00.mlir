func.func @conv2d_empty_kernel(%x: tensor<1x4x3x3xf32>, %w: tensor<4x4x0x0xf32>) -> tensor<1x4x4x4xf32> {
  %0 = kiln.conv2d %x, %w : (tensor<1x4x3x3xf32>, tensor<4x4x0x0xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
