func.func @select_not_broadcastable(%c: tensor<3xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  %0 = kiln.select %c, %a, %b : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
