func.func @reshape_rank0_count_mismatch(%x: tensor<2xf32>) -> tensor<f32> {
  %0 = kiln.reshape %x : tensor<2xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
