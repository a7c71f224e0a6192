func.func @softmax_wrong_result(%x: tensor<2x3xf32>) {
  %0 = "kiln.softmax"(%x) {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return
}
