func.func @concat_rank0(%a: tensor<i64>) -> tensor<2xi64> {
  %0 = kiln.concat %a, %a axis 0 : (tensor<i64>, tensor<i64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
