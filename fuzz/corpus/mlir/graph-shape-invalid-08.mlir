func.func @transpose_negative(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = kiln.transpose %x [-1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
