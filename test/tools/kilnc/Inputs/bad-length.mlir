// A run-time length (kiln.length_axis) whose length result is not an i64
// scalar: refused when the entry point is described.
func.func @main(%x: tensor<2x3xi64>) -> (tensor<2x3xi64> {kiln.length_axis = 1 : i64, kiln.length_result = 1 : i64}, tensor<2xi64>) {
  %n = kiln.reduce_sum %x axes [1] : tensor<2x3xi64> -> tensor<2xi64>
  return %x, %n : tensor<2x3xi64>, tensor<2xi64>
}
