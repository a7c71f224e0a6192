func.func @gemm_contracting_mismatch(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) {
  %0 = kiln.gemm %a, %b {trans_b} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return
}
