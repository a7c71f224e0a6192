func.func @sign_nan() -> tensor<4xf32> {
  %c = kiln.constant dense<[0x7FC00000, -3.0, -0.0, 2.0]> : tensor<4xf32>
  %0 = kiln.sign %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
