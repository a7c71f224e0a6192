func.func @transpose_wrong_result(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = kiln.transpose %x [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
