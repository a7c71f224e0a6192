func.func @compare_result_not_bool(%a: tensor<4xf32>) {
  %0 = kiln.compare lt, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
