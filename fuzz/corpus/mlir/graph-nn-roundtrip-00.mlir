func.func @max_pool2d(%x: tensor<1x64x112x112xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<1x64x57x57xf32>, tensor<1x64x110x110xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                           pads = array<i64: 1, 1, 1, 1>}
      : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  %1 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                           pads = array<i64: 1, 1, 1, 1>, ceil_mode}
      : tensor<1x64x112x112xf32> -> tensor<1x64x57x57xf32>
  %2 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>,
                           dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}
      : tensor<1x64x112x112xf32> -> tensor<1x64x110x110xf32>
  return %0, %1, %2 : tensor<1x64x56x56xf32>, tensor<1x64x57x57xf32>, tensor<1x64x110x110xf32>
}
