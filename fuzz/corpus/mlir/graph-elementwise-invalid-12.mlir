func.func @add_of_dynamic_shape(%a: tensor<2x?xf32>) {
  %0 = kiln.add %a, %a : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}
