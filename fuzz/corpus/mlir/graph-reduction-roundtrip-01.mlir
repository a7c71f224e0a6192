func.func @reduce_mean(%x: tensor<4x6xf16>, %y: tensor<4x6xbf16>)
    -> (tensor<4x1xf16>, tensor<1x1xbf16>) {
  %0 = kiln.reduce_mean %x axes [1] keep_dims : tensor<4x6xf16> -> tensor<4x1xf16>
  %1 = kiln.reduce_mean %y axes [-2, -1] keep_dims : tensor<4x6xbf16> -> tensor<1x1xbf16>
  return %0, %1 : tensor<4x1xf16>, tensor<1x1xbf16>
}
