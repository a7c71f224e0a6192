func.func @split_no_results(%x: tensor<4x6xf32>) {
  "kiln.split"(%x) {axis = 0 : i64} : (tensor<4x6xf32>) -> ()
  return
}
