func.func @gelu(%x: tensor<2x8xf32>, %h: tensor<4xbf16>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<4xbf16>) {
  %0 = kiln.gelu %x : tensor<2x8xf32>
  %1 = kiln.gelu %x approximate none : tensor<2x8xf32>
  %2 = kiln.gelu %h approximate tanh : tensor<4xbf16>
  return %0, %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<4xbf16>
}
