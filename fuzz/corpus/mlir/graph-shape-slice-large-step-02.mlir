func.func @int64_min_step() -> tensor<1xf32> {
  %c = kiln.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = kiln.slice %c starts [3] limits [-1] steps [-9223372036854775808]
      : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
