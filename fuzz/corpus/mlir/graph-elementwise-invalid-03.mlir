func.func @select_element_type_mismatch(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  %0 = kiln.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}
