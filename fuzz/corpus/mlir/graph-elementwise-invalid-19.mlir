func.func @add_wrong_result_shape(%a: tensor<4xf32>) {
  %0 = kiln.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}
