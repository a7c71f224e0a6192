func.func @not_of_float(%a: tensor<4xf32>) {
  %0 = kiln.not %a : tensor<4xf32>
  return
}
