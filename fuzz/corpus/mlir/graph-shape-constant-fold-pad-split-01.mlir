func.func @split_of_constant() -> (tensor<1xi64>, tensor<3xi64>) {
  %c = kiln.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0:2 = kiln.split %c axis 0 : tensor<4xi64> -> tensor<1xi64>, tensor<3xi64>
  return %0#0, %0#1 : tensor<1xi64>, tensor<3xi64>
}
