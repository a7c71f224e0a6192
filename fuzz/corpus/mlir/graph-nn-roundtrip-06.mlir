func.func @layer_norm_multi_dim(%x: tensor<2x3x4x5xf16>, %g: tensor<3x4x5xf16>, %b: tensor<3x4x5xf16>,
                                %y: tensor<6xbf16>) {
  %0 = kiln.layer_norm %x, %g, %b axis 1 epsilon 1.0e-05
      : (tensor<2x3x4x5xf16>, tensor<3x4x5xf16>, tensor<3x4x5xf16>) -> tensor<2x3x4x5xf16>
  %1 = kiln.layer_norm %x, %g axis -3 epsilon 1.0e-03
      : (tensor<2x3x4x5xf16>, tensor<3x4x5xf16>) -> tensor<2x3x4x5xf16>
  %2 = kiln.layer_norm %y, %y, %y axis 0 epsilon 1.0e-05
      : (tensor<6xbf16>, tensor<6xbf16>, tensor<6xbf16>) -> tensor<6xbf16>
  return
}
