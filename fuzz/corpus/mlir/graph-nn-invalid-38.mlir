func.func @batch_norm_mean_shape(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %m: tensor<1x4xf32>) {
  %0 = kiln.batch_norm %x, %p, %p, %m, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}
