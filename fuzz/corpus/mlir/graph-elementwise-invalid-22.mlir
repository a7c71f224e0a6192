func.func @select_wrong_result_type(%c: tensor<4xi1>, %a: tensor<4xf32>) {
  %0 = kiln.select %c, %a, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}
