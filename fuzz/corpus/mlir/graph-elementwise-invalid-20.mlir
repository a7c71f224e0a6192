func.func @compare_wrong_result_shape(%a: tensor<2x1xi32>, %b: tensor<3xi32>) {
  %0 = kiln.compare eq, %a, %b : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x1xi1>
  return
}
