func.func @softmax_integer(%x: tensor<2x3xi32>) {
  %0 = kiln.softmax %x axis -1 : tensor<2x3xi32>
  return
}
