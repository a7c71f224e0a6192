func.func @hardsigmoid_nan() -> tensor<2xf32> {
  %c = kiln.constant dense<[0x7FC00000, 0.0]> : tensor<2xf32>
  %0 = kiln.hardsigmoid %c alpha 0.2 beta 0.5 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
