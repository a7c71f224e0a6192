func.func @split_axis_too_negative(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = kiln.split %x axis -3 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
