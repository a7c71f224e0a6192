func.func @reduce_axis_too_negative(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = kiln.reduce_mean %x axes [-3] keep_dims : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
