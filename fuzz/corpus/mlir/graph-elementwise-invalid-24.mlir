func.func @gelu_bad_approximation(%a: tensor<4xf32>) {
  %0 = kiln.gelu %a approximate fast : tensor<4xf32>
  return
}
