func.func @split_sizes_too_large(%x: tensor<4x6xf32>) -> tensor<3x6xf32> {
  %0:2 = kiln.split %x axis 0 : tensor<4x6xf32> -> tensor<3x6xf32>, tensor<3x6xf32>
  return %0#0 : tensor<3x6xf32>
}
