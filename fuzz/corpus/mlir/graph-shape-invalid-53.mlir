func.func @pad_wrong_result(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = kiln.pad %x low [1, 0] high [1, 0] constant 0.0 : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
