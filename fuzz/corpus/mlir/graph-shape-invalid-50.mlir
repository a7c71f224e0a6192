func.func @pad_reflect_too_large(%x: tensor<2x3xf32>) -> tensor<2x7xf32> {
  %0 = kiln.pad %x low [0, 3] high [0, 1] reflect 0.0 : tensor<2x3xf32> -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}
