func.func @matmul_element_type_mismatch(%a: tensor<2x4xf32>, %b: tensor<4x3xf16>) {
  %0 = kiln.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf16>) -> tensor<2x3xf32>
  return
}
