func.func @concat_element_mismatch(%a: tensor<2xf32>, %b: tensor<2xf16>) -> tensor<4xf32> {
  %0 = kiln.concat %a, %b axis 0 : (tensor<2xf32>, tensor<2xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
