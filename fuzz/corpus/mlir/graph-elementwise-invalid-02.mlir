func.func @binary_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  %0 = kiln.mul %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}
