func.func @gemm_rank_b(%a: tensor<2x4xf32>, %b: tensor<4xf32>) {
  %0 = kiln.gemm %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2xf32>
  return
}
