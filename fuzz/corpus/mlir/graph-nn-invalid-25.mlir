func.func @softmax_dynamic(%x: tensor<2x?xf32>) {
  %0 = kiln.softmax %x axis -1 : tensor<2x?xf32>
  return
}
