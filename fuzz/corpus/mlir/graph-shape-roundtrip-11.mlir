func.func @pad_bf16_i1(%x: tensor<2xbf16>, %b: tensor<1x2xi1>)
    -> (tensor<5xbf16>, tensor<2x2xi1>) {
  %0 = kiln.pad %x low [1] high [2] constant 2.5 : tensor<2xbf16> -> tensor<5xbf16>
  %1 = kiln.pad %b low [1, 0] high [0, 0] edge 0.0 : tensor<1x2xi1> -> tensor<2x2xi1>
  return %0, %1 : tensor<5xbf16>, tensor<2x2xi1>
}
