func.func @leaky_relu_missing_alpha(%a: tensor<4xf32>) {
  %0 = kiln.leaky_relu %a : tensor<4xf32>
  return
}
