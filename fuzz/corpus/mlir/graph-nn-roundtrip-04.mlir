func.func @softmax(%x: tensor<2x8x128xf32>, %h: tensor<4x10xf16>, %b: tensor<16xbf16>)
    -> (tensor<2x8x128xf32>, tensor<2x8x128xf32>, tensor<4x10xf16>, tensor<16xbf16>) {
  %0 = kiln.softmax %x axis -1 : tensor<2x8x128xf32>
  %1 = kiln.softmax %x axis 0 : tensor<2x8x128xf32>
  %2 = kiln.log_softmax %h axis -2 : tensor<4x10xf16>
  %3 = kiln.log_softmax %b axis 0 : tensor<16xbf16>
  return %0, %1, %2, %3 : tensor<2x8x128xf32>, tensor<2x8x128xf32>, tensor<4x10xf16>, tensor<16xbf16>
}
