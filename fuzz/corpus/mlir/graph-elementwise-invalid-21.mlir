func.func @exp_wrong_result_type(%a: tensor<4xf32>) {
  %0 = "kiln.exp"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return
}
