func.func @reduce_i1(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = "kiln.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<2x3xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}
