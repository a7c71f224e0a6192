func.func @argmax_rank0(%x: tensor<f32>) -> tensor<i64> {
  %0 = kiln.argmax %x axis 0 : tensor<f32> -> tensor<i64>
  return %0 : tensor<i64>
}
