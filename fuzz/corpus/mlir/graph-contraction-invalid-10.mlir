func.func @gemm_element_type_a_b(%a: tensor<2x4xf32>, %b: tensor<4x3xbf16>) {
  %0 = kiln.gemm %a, %b : (tensor<2x4xf32>, tensor<4x3xbf16>) -> tensor<2x3xf32>
  return
}
