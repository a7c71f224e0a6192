func.func @gemm_c_not_broadcastable(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<2xf32>) {
  %0 = kiln.gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}
