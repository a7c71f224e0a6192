func.func @pad_low_count(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = kiln.pad %x low [0] high [0, 0] constant 0.0 : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
