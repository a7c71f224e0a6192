func.func @reshape_element_mismatch(%x: tensor<2x3xf32>) -> tensor<6xf16> {
  %0 = kiln.reshape %x : tensor<2x3xf32> -> tensor<6xf16>
  return %0 : tensor<6xf16>
}
