func.func @concat_wrong_result(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x7xf32> {
  %0 = kiln.concat %a, %b axis -1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}
