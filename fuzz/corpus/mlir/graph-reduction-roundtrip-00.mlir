func.func @reduce_sum(%x: tensor<2x8x64xf32>)
    -> (tensor<2x8x1xf32>, tensor<8xf32>, tensor<f32>, tensor<2x8x64xf32>) {
  %0 = kiln.reduce_sum %x axes [-1] keep_dims : tensor<2x8x64xf32> -> tensor<2x8x1xf32>
  %1 = kiln.reduce_sum %x axes [0, 2] : tensor<2x8x64xf32> -> tensor<8xf32>
  %2 = kiln.reduce_sum %x axes [2, -3, 1] : tensor<2x8x64xf32> -> tensor<f32>
  %3 = kiln.reduce_sum %x axes [] : tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  return %0, %1, %2, %3 : tensor<2x8x1xf32>, tensor<8xf32>, tensor<f32>,
      tensor<2x8x64xf32>
}
