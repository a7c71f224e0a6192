func.func @pad_unknown_mode(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = kiln.pad %x low [1, 0] high [1, 0] wrap 0.0 : tensor<2x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
