func.func @gemm_trans_not_unit(%a: tensor<2x2xf32>) {
  %0 = kiln.gemm %a, %a {trans_a = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}
