func.func @log_softmax_axis_out_of_range(%x: tensor<2x3xf32>) {
  %0 = "kiln.log_softmax"(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
