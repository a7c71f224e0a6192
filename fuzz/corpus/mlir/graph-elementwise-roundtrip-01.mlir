func.func @numeric_unary_int(%a: tensor<4xi8>, %b: tensor<4xi32>, %c: tensor<2x2xi64>)
    -> (tensor<4xi8>, tensor<4xi32>, tensor<2x2xi64>, tensor<2x2xi64>) {
  %0 = kiln.neg %a : tensor<4xi8>
  %1 = kiln.abs %b : tensor<4xi32>
  %2 = kiln.sign %c : tensor<2x2xi64>
  %3 = kiln.relu %c : tensor<2x2xi64>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi32>, tensor<2x2xi64>, tensor<2x2xi64>
}
