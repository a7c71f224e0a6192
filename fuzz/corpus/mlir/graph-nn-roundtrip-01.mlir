func.func @max_pool2d_variants(%x: tensor<2x3x5x5xf16>, %y: tensor<1x1x9x7xbf16>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 3, 3>,
                           pads = array<i64: 1, 1, 1, 1>, ceil_mode}
      : tensor<2x3x5x5xf16> -> tensor<2x3x2x2xf16>
  %1 = kiln.max_pool2d %y {kernel_shape = array<i64: 2, 3>, strides = array<i64: 1, 2>,
                           dilations = array<i64: 2, 1>, pads = array<i64: 0, 2, 1, 0>}
      : tensor<1x1x9x7xbf16> -> tensor<1x1x8x4xbf16>
  return
}
