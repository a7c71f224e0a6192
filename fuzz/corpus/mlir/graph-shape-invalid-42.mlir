func.func @gather_axis_out_of_range(%x: tensor<4x8xf32>, %i: tensor<2xi64>) -> tensor<4x2xf32> {
  %0 = kiln.gather %x[%i] axis 2 : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
