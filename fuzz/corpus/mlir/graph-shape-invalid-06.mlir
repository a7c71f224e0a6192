func.func @transpose_repeated(%x: tensor<2x3x4xf32>) -> tensor<2x2x4xf32> {
  %0 = kiln.transpose %x [0, 0, 2] : tensor<2x3x4xf32> -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}
