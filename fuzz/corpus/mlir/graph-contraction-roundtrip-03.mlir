func.func @matmul_f64(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %0 = kiln.matmul %a, %a : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0 : tensor<2x2xf64>
}
