func.func @batch_norm_wrong_result(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>) {
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf16>
  return
}
