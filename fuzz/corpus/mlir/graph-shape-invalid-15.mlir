func.func @concat_axis_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %0 = kiln.concat %a, %a axis 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
