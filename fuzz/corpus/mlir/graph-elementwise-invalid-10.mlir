func.func @exp_of_integer(%a: tensor<4xi32>) {
  %0 = kiln.exp %a : tensor<4xi32>
  return
}
