func.func @layer_norm(%x: tensor<1x128x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>)
    -> (tensor<1x128x768xf32>, tensor<1x128x768xf32>) {
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05
      : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  %1 = kiln.layer_norm %x, %g axis 2 epsilon 1.0e-12
      : (tensor<1x128x768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  return %0, %1 : tensor<1x128x768xf32>, tensor<1x128x768xf32>
}
