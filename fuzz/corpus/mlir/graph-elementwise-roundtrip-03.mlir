func.func @logical_not(%x: tensor<3x1xi1>) -> tensor<3x1xi1> {
  %0 = kiln.not %x : tensor<3x1xi1>
  return %0 : tensor<3x1xi1>
}
