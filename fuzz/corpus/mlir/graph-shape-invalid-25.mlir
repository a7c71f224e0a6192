func.func @split_element_mismatch(%x: tensor<4x6xf32>) -> tensor<4x3xf16> {
  %0:2 = kiln.split %x axis 1 : tensor<4x6xf32> -> tensor<4x3xf32>, tensor<4x3xf16>
  return %0#1 : tensor<4x3xf16>
}
