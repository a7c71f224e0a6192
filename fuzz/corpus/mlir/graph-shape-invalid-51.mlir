func.func @pad_reflect_size1(%x: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = kiln.pad %x low [0, 0] high [1, 0] reflect 0.0 : tensor<1x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
