func.func @batch_norm_bias_shape(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %b: tensor<2xf32>) {
  %0 = kiln.batch_norm %x, %p, %b, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}
