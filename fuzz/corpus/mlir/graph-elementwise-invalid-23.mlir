func.func @compare_bad_predicate(%a: tensor<4xf32>) {
  %0 = kiln.compare foo, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}
