func.func @reshape_count_overflow(%x: tensor<4294967296x4294967296xf32>) -> tensor<0xf32> {
  %0 = kiln.reshape %x : tensor<4294967296x4294967296xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
