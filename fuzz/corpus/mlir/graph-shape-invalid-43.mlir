func.func @gather_axis_too_negative(%x: tensor<4x8xf32>, %i: tensor<2xi32>) -> tensor<2x8xf32> {
  %0 = kiln.gather %x[%i] axis -3 : (tensor<4x8xf32>, tensor<2xi32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
