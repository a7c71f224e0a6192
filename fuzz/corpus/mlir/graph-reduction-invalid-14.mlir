func.func @argmax_i32_result(%x: tensor<4x10xf32>) -> tensor<4xi32> {
  %0 = kiln.argmax %x axis 1 : tensor<4x10xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
