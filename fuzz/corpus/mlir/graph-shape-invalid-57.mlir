func.func @split_sizes_overflow(%x: tensor<0xf32>) {
  %a, %b, %c = kiln.split %x axis 0 : tensor<0xf32> -> tensor<9223372036854775807xf32>, tensor<9223372036854775807xf32>, tensor<2xf32>
  return
}
