func.func @main(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = kiln.relu %x : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
