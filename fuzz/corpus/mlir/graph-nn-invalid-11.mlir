func.func @pool_missing_kernel_shape(%x: tensor<1x3x8x8xf32>) {
  %0 = kiln.max_pool2d %x : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return
}
