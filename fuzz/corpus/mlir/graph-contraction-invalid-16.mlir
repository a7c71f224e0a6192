func.func @gemm_integer(%a: tensor<2x2xi32>) {
  %0 = kiln.gemm %a, %a : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return
}
