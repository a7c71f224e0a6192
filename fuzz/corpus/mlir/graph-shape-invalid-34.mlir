func.func @slice_limit_past_end(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  %0 = kiln.slice %x starts [0, 0] limits [4, 9] steps [1, 1] : tensor<4x8xf32> -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}
