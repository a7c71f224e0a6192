func.func @split_sizes_too_small(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  %0:3 = kiln.split %x axis -1 : tensor<4x6xf32> -> tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x1xf32>
  return %0#0 : tensor<4x2xf32>
}
