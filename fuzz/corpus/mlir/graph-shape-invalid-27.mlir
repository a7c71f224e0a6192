func.func @split_other_dim_mismatch(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  %0:2 = kiln.split %x axis 1 : tensor<4x6xf32> -> tensor<4x3xf32>, tensor<2x3xf32>
  return %0#0 : tensor<4x3xf32>
}
