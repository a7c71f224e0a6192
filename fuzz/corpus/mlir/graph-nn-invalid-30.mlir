func.func @layer_norm_bias_element_type(%x: tensor<2x4x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xf32>) {
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05 : (tensor<2x4x8xbf16>, tensor<8xbf16>, tensor<8xf32>) -> tensor<2x4x8xbf16>
  return
}
