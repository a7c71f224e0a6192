func.func @logical_binary(%a: tensor<2x4xi1>, %b: tensor<4xi1>, %s: tensor<i1>)
    -> (tensor<2x4xi1>, tensor<2x4xi1>, tensor<i1>) {
  %0 = kiln.and %a, %b : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %1 = kiln.or %s, %a : (tensor<i1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %2 = kiln.xor %s, %s : (tensor<i1>, tensor<i1>) -> tensor<i1>
  return %0, %1, %2 : tensor<2x4xi1>, tensor<2x4xi1>, tensor<i1>
}
