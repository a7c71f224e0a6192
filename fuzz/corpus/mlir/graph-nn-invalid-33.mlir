func.func @layer_norm_missing_epsilon(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) {
  %0 = kiln.layer_norm %x, %g axis -1 : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return
}
