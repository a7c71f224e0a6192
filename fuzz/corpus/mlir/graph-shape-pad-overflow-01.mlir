func.func @pad_overflow_negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.pad %x low [9223372036854775807] high [1] edge 0.0
      : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
