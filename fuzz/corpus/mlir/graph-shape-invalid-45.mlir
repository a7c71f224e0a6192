func.func @gather_wrong_result(%x: tensor<4x8xf32>, %i: tensor<2x3xi64>) -> tensor<4x2xf32> {
  %0 = kiln.gather %x[%i] axis -1 : (tensor<4x8xf32>, tensor<2x3xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
