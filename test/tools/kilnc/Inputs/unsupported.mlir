// Valid IR that the CPU path cannot lower: an op outside the graph contract.
func.func @uses_arith(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<1.0> : tensor<2xf32>
  %0 = kiln.add %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
