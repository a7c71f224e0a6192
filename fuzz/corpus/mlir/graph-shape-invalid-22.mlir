func.func @split_axis_out_of_range(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = kiln.split %x axis 2 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
