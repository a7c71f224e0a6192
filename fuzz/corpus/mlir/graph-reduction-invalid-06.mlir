func.func @reduce_wrong_result_element(%x: tensor<2x3xf16>) -> tensor<2xf32> {
  %0 = kiln.reduce_mean %x axes [1] : tensor<2x3xf16> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
