func.func @slice_negative_step_start_past_end(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.slice %x starts [4, 0] limits [-1, 8] steps [-1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
