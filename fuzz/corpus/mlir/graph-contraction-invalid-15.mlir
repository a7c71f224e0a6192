func.func @gemm_wrong_result(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) {
  %0 = kiln.gemm %a, %b {trans_a} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}
