func.func @argmax_empty_axis(%x: tensor<4x0xf32>) -> tensor<4xi64> {
  %0 = kiln.argmax %x axis 1 : tensor<4x0xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
