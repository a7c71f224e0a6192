func.func @slice_negative_step_limit_above_start(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.slice %x starts [0, 3] limits [4, 7] steps [1, -2] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
