func.func @split(%x: tensor<1x128x2304xf16>, %y: tensor<6x2xi32>)
    -> (tensor<1x128x768xf16>, tensor<1x128x768xf16>, tensor<1x128x768xf16>,
        tensor<5x2xi32>, tensor<6x2xi32>) {
  %q, %k, %v = kiln.split %x axis 2
      : tensor<1x128x2304xf16> -> tensor<1x128x768xf16>,
        tensor<1x128x768xf16>, tensor<1x128x768xf16>
  %a, %b, %c = kiln.split %y axis -2
      : tensor<6x2xi32> -> tensor<1x2xi32>, tensor<0x2xi32>, tensor<5x2xi32>
  %u = kiln.split %y axis 1 : tensor<6x2xi32> -> tensor<6x2xi32>
  return %q, %k, %v, %c, %u : tensor<1x128x768xf16>, tensor<1x128x768xf16>,
      tensor<1x128x768xf16>, tensor<5x2xi32>, tensor<6x2xi32>
}
