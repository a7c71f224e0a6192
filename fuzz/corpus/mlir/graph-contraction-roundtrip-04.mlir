func.func @gemm_plain(%a: tensor<4x16xf32>, %b: tensor<16x32xf32>) -> tensor<4x32xf32> {
  %0 = kiln.gemm %a, %b : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
