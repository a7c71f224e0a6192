func.func @split_rank_mismatch(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  %0:2 = kiln.split %x axis 1 : tensor<4x6xf32> -> tensor<24xf32>, tensor<4x2xf32>
  return %0#1 : tensor<4x2xf32>
}
