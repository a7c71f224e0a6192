func.func @pad_negative_high(%x: tensor<2x3xf32>) -> tensor<1x3xf32> {
  %0 = kiln.pad %x low [0, 0] high [-1, 0] edge 0.0 : tensor<2x3xf32> -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}
