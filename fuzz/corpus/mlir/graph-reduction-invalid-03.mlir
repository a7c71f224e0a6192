func.func @reduce_axis_twice(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = kiln.reduce_min %x axes [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
