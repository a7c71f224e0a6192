// y = x * c + c with c = [[1, 2, 3], [4, 5, 6]]: every output is checkable.
func.func @affine(%x: tensor<2x3xf32> {kiln.name = "x"})
    -> (tensor<2x3xf32> {kiln.name = "y"}) {
  %c = kiln.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %m = kiln.mul %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = kiln.add %m, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
