// Two i64 inputs and two outputs (sum, product): integer tensors and output
// selection.
func.func @twice(%a: tensor<4xi64> {kiln.name = "a"}, %b: tensor<4xi64> {kiln.name = "b"})
    -> (tensor<4xi64> {kiln.name = "sum"}, tensor<4xi64> {kiln.name = "product"}) {
  %s = kiln.add %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %p = kiln.mul %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %s, %p : tensor<4xi64>, tensor<4xi64>
}
