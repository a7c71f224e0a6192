func.func @batch_norm_scale_element_type(%x: tensor<1x4x2x2xf32>, %s: tensor<4xf16>, %p: tensor<4xf32>) {
  %0 = kiln.batch_norm %x, %s, %p, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}
