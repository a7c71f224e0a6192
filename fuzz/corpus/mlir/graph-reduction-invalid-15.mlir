func.func @argmin_i1(%x: tensor<4xi1>) -> tensor<i64> {
  %0 = kiln.argmin %x axis 0 : tensor<4xi1> -> tensor<i64>
  return %0 : tensor<i64>
}
