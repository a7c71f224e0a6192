func.func @compare_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  %0 = kiln.compare eq, %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return
}
