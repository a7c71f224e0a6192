func.func @argmin_empty_axis_negative(%x: tensor<0x3xi8>) -> tensor<1x3xi64> {
  %0 = kiln.argmin %x axis -2 keep_dims : tensor<0x3xi8> -> tensor<1x3xi64>
  return %0 : tensor<1x3xi64>
}
