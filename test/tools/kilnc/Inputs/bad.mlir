func.func @bad(%x: tensor<2xf32>) -> tensor<3xf32> {
  %0 = kiln.relu %x : tensor<2xf32>
  return %0 : tensor<3xf32>
}
