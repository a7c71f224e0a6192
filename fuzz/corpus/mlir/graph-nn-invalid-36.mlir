func.func @batch_norm_variance_element_type(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %v: tensor<4xf64>) {
  %0 = kiln.batch_norm %x, %p, %p, %p, %v epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>) -> tensor<1x4x2x2xf32>
  return
}
