func.func @reduce_axis_twice_negative(%x: tensor<2x3x4xi32>) -> tensor<2x4xi32> {
  %0 = kiln.reduce_prod %x axes [1, -2] : tensor<2x3x4xi32> -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
