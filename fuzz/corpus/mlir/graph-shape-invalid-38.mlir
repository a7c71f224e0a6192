func.func @slice_negative_step_limit_too_low(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.slice %x starts [3, 0] limits [-2, 8] steps [-1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
