func.func @gather_from_scalar(%x: tensor<f32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %0 = kiln.gather %x[%i] axis 0 : (tensor<f32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
