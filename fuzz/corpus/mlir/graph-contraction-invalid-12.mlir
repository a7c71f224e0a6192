func.func @gemm_element_type_c(%a: tensor<2x4xf16>, %b: tensor<4x3xf16>, %c: tensor<3xf32>) {
  %0 = kiln.gemm %a, %b, %c : (tensor<2x4xf16>, tensor<4x3xf16>, tensor<3xf32>) -> tensor<2x3xf16>
  return
}
