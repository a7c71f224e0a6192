func.func @layer_norm_bias_shape(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<1x8xf32>) {
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05 : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<1x8xf32>) -> tensor<2x4x8xf32>
  return
}
