func.func @conv2d_defaults(%x: tensor<2x4x8x8xf16>, %w: tensor<6x4x3x3xf16>) {
  %0 = kiln.conv2d %x, %w : (tensor<2x4x8x8xf16>, tensor<6x4x3x3xf16>) -> tensor<2x6x6x6xf16>
  %1 = kiln.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                           dilations = array<i64: 1, 1>, groups = 1}
      : (tensor<2x4x8x8xf16>, tensor<6x4x3x3xf16>) -> tensor<2x6x6x6xf16>
  return
}
