func.func @constant_not_elements() -> tensor<f32> {
  %c = "kiln.constant"() {value = 1.0 : f32} : () -> tensor<f32>
  return %c : tensor<f32>
}
