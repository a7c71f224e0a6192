func.func @pad_negative_low(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = kiln.pad %x low [0, -1] high [0, 0] constant 0.0 : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
