func.func @reduce_wrong_result_keep_dims(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = kiln.reduce_sum %x axes [1] keep_dims : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
