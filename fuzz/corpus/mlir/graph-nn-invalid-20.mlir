func.func @softmax_axis_out_of_range(%x: tensor<2x3xf32>) {
  %0 = kiln.softmax %x axis 2 : tensor<2x3xf32>
  return
}
