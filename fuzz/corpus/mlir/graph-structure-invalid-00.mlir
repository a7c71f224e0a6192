func.func @constant_type_mismatch() -> tensor<3xf32> {
  %c = "kiln.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return %c : tensor<3xf32>
}
