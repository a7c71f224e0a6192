func.func @matmul_batched(%a: tensor<8x128x64xf16>, %b: tensor<64x32xf16>,
                          %c: tensor<2x1x4x8xbf16>, %d: tensor<3x8x5xbf16>)
    -> (tensor<8x128x32xf16>, tensor<2x3x4x5xbf16>) {
  %0 = kiln.matmul %a, %b : (tensor<8x128x64xf16>, tensor<64x32xf16>) -> tensor<8x128x32xf16>
  %1 = kiln.matmul %c, %d : (tensor<2x1x4x8xbf16>, tensor<3x8x5xbf16>) -> tensor<2x3x4x5xbf16>
  return %0, %1 : tensor<8x128x32xf16>, tensor<2x3x4x5xbf16>
}
