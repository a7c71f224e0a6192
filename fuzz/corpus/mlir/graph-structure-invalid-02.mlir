func.func @constant_f8() -> tensor<2xf8E4M3FN> {
  %c = kiln.constant dense<1.0> : tensor<2xf8E4M3FN>
  return %c : tensor<2xf8E4M3FN>
}
