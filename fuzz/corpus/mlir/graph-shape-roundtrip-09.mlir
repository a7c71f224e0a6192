func.func @gather_i1(%x: tensor<4xi1>, %i: tensor<2x2xi32>) -> tensor<2x2xi1> {
  %0 = kiln.gather %x[%i] axis 0 : (tensor<4xi1>, tensor<2x2xi32>) -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}
