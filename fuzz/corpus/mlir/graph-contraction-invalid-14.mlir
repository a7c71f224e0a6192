func.func @gemm_c_higher_rank(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<1x2x3xf32>) {
  %0 = kiln.gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<1x2x3xf32>) -> tensor<2x3xf32>
  return
}
