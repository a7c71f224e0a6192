func.func @reshape_f32(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
