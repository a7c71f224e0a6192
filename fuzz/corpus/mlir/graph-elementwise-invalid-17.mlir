func.func @and_of_float(%a: tensor<4xf32>) {
  %0 = kiln.and %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
