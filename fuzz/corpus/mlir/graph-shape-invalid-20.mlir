func.func @concat_overflow(%a: tensor<9223372036854775807xi8>, %b: tensor<1xi8>) -> tensor<1xi8> {
  %0 = kiln.concat %a, %b axis 0 : (tensor<9223372036854775807xi8>, tensor<1xi8>) -> tensor<1xi8>
  return %0 : tensor<1xi8>
}
