func.func @slice_starts_count(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.slice %x starts [0] limits [4, 8] steps [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
