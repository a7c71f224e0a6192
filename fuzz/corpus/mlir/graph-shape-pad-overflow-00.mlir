func.func @pad_overflow_wraps_to_valid(%x: tensor<4xf32>) -> tensor<2xf32> {
  %0 = kiln.pad %x low [9223372036854775807] high [9223372036854775807] constant 0.0
      : tensor<4xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
