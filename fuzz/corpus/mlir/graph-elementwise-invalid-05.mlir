func.func @select_condition_not_bool(%c: tensor<4xi8>, %a: tensor<4xf32>) {
  %0 = kiln.select %c, %a, %a : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
