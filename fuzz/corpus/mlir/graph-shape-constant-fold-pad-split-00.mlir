func.func @pad_of_constant() -> (tensor<5xi64>, tensor<5xi64>, tensor<6xi64>) {
  %c = kiln.constant dense<[1, 2]> : tensor<2xi64>
  %0 = kiln.pad %c low [1] high [2] constant 0.0 : tensor<2xi64> -> tensor<5xi64>
  %d = kiln.constant dense<[1, 2, 3]> : tensor<3xi64>
  %1 = kiln.pad %d low [1] high [1] reflect 0.0 : tensor<3xi64> -> tensor<5xi64>
  %2 = kiln.pad %d low [1] high [2] edge 0.0 : tensor<3xi64> -> tensor<6xi64>
  return %0, %1, %2 : tensor<5xi64>, tensor<5xi64>, tensor<6xi64>
}
