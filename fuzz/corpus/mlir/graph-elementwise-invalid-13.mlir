func.func @exp_of_unranked(%a: tensor<*xf32>) {
  %0 = kiln.exp %a : tensor<*xf32>
  return
}
