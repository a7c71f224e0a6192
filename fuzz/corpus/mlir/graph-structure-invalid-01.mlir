func.func @constant_element_mismatch() -> tensor<2xf16> {
  %c = "kiln.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf16>
  return %c : tensor<2xf16>
}
