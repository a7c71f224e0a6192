func.func @gather_i8_indices(%x: tensor<4x8xf32>, %i: tensor<2xi8>) -> tensor<2x8xf32> {
  %0 = kiln.gather %x[%i] axis 0 : (tensor<4x8xf32>, tensor<2xi8>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
