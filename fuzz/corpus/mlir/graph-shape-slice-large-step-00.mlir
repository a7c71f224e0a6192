func.func @huge_positive_step() -> tensor<1xf32> {
  %c = kiln.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = kiln.slice %c starts [0] limits [4] steps [9223372036854775807]
      : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
