func.func @argmax_axis_too_large(%x: tensor<4x10xf32>) -> tensor<4xi64> {
  %0 = kiln.argmax %x axis 2 : tensor<4x10xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
