func.func @leaky_relu_missing_alpha_generic(%a: tensor<4xf32>) {
  %0 = "kiln.leaky_relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
