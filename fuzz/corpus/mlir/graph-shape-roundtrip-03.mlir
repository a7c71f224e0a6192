func.func @transpose(%x: tensor<1x128x12x64xbf16>, %y: tensor<2x3xi8>,
                     %s: tensor<i32>)
    -> (tensor<1x12x128x64xbf16>, tensor<3x2xi8>, tensor<i32>) {
  %0 = kiln.transpose %x [0, 2, 1, 3]
      : tensor<1x128x12x64xbf16> -> tensor<1x12x128x64xbf16>
  %1 = kiln.transpose %y [1, 0] : tensor<2x3xi8> -> tensor<3x2xi8>
  %2 = kiln.transpose %s [] : tensor<i32> -> tensor<i32>
  return %0, %1, %2 : tensor<1x12x128x64xbf16>, tensor<3x2xi8>, tensor<i32>
}
