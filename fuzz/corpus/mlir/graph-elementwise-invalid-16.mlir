func.func @pow_of_integer(%a: tensor<4xi32>) {
  %0 = kiln.pow %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}
