func.func @reduce_axis_too_large(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = kiln.reduce_sum %x axes [2] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
