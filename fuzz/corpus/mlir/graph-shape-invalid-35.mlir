func.func @slice_start_after_limit(%x: tensor<4x8xf32>) -> tensor<0x8xf32> {
  %0 = kiln.slice %x starts [3, 0] limits [1, 8] steps [1, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}
