func.func @layer_norm_scale_shape(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) {
  %0 = kiln.layer_norm %x, %g axis 1 epsilon 1.0e-05 : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return
}
