func.func @argmax_wrong_result_shape(%x: tensor<4x10xf32>) -> tensor<4xi64> {
  %0 = kiln.argmax %x axis 1 keep_dims : tensor<4x10xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
