func.func @binary_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  %0 = kiln.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}
