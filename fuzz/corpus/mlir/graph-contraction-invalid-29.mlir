func.func @conv2d_groups_not_dividing(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  %0 = kiln.conv2d %x, %w {groups = 4} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}
