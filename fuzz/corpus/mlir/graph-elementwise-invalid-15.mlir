func.func @add_of_bool(%a: tensor<4xi1>) {
  %0 = kiln.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}
