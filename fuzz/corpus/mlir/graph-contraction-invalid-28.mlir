func.func @conv2d_groups_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  %0 = kiln.conv2d %x, %w {groups = 0} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}
