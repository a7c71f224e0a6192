func.func @broadcast_incompatible(%x: tensor<3x2xf32>) -> tensor<2x3x4xf32> {
  %0 = kiln.broadcast %x : tensor<3x2xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
