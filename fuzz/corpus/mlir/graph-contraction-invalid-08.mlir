func.func @gemm_rank_a(%a: tensor<1x2x4xf32>, %b: tensor<4x3xf32>) {
  %0 = kiln.gemm %a, %b : (tensor<1x2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return
}
