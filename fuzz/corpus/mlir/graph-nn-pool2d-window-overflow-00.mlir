func.func @pool_dilation_overflow(%x: tensor<1x1x4x4xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, dilations = array<i64: 9223372036854775807, 1>}
      : tensor<1x1x4x4xf32> -> tensor<1x1x1x2xf32>
  return
}
