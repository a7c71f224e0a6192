func.func @conv2d_integer(%x: tensor<1x1x3x3xi8>) {
  %0 = kiln.conv2d %x, %x : (tensor<1x1x3x3xi8>, tensor<1x1x3x3xi8>) -> tensor<1x1x1x1xi8>
  return
}
