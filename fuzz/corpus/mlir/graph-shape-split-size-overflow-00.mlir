func.func @split_size_overflow(%x: tensor<0xf32>) -> tensor<2xf32> {
  %0:3 = kiln.split %x axis 0 : tensor<0xf32> -> tensor<9223372036854775807xf32>,
      tensor<9223372036854775807xf32>, tensor<2xf32>
  return %0#2 : tensor<2xf32>
}
