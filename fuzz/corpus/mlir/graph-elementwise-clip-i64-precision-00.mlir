func.func @clip_i64_large_values() -> tensor<3xi64> {
  %c = kiln.constant dense<[9007199254740993, -9007199254740993, 9223372036854775807]> : tensor<3xi64>
  %0 = kiln.clip %c min 0.0 : tensor<3xi64>
  return %0 : tensor<3xi64>
}
