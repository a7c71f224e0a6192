func.func @reshape_i1_empty(%b: tensor<4xi1>, %e: tensor<0x3xi64>)
    -> (tensor<2x2xi1>, tensor<3x0xi64>) {
  %0 = kiln.reshape %b : tensor<4xi1> -> tensor<2x2xi1>
  %1 = kiln.reshape %e : tensor<0x3xi64> -> tensor<3x0xi64>
  return %0, %1 : tensor<2x2xi1>, tensor<3x0xi64>
}
