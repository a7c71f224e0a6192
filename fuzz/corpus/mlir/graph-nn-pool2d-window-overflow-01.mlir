func.func @pool_dilation_overflow_2(%x: tensor<1x1x4x4xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 1, 3>, dilations = array<i64: 1, 4611686018427387904>}
      : tensor<1x1x4x4xf32> -> tensor<1x1x4x1xf32>
  return
}
