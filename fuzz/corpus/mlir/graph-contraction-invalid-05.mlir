func.func @matmul_bool(%a: tensor<2x2xi1>) {
  %0 = kiln.matmul %a, %a : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  return
}
