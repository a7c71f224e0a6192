func.func @conv2d_variants(%x: tensor<1x8x10x12xbf16>, %wg: tensor<4x4x3x3xbf16>,
                           %wd: tensor<8x1x3x3xbf16>, %bd: tensor<8xbf16>,
                           %w1: tensor<2x8x1x1xbf16>) {
  %0 = kiln.conv2d %x, %w1 {strides = array<i64: 1, 2>, pads = array<i64: 1, 0, 2, 1>}
      : (tensor<1x8x10x12xbf16>, tensor<2x8x1x1xbf16>) -> tensor<1x2x13x7xbf16>
  %1 = kiln.conv2d %x, %wg {dilations = array<i64: 2, 2>, groups = 2}
      : (tensor<1x8x10x12xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x6x8xbf16>
  %2 = kiln.conv2d %x, %wd, %bd {groups = 8, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x10x12xbf16>, tensor<8x1x3x3xbf16>, tensor<8xbf16>) -> tensor<1x8x10x12xbf16>
  %3 = kiln.conv2d %x, %wg {dilations = array<i64: 2, 1>, groups = 2, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 3>}
      : (tensor<1x8x10x12xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x3x4xbf16>
  return
}
