func.func @gemm_dynamic_c(%a: tensor<2x2xf32>, %c: tensor<?xf32>) {
  %0 = kiln.gemm %a, %a, %c : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<?xf32>) -> tensor<2x2xf32>
  return
}
