func.func @softmax_unranked(%x: tensor<*xf32>) {
  %0 = "kiln.softmax"(%x) {axis = 0 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  return
}
