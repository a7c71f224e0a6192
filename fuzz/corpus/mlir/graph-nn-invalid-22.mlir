func.func @softmax_scalar(%x: tensor<f32>) {
  %0 = kiln.softmax %x axis 0 : tensor<f32>
  return
}
