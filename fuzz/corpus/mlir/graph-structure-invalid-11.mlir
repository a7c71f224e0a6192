func.func @callee(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @fusion_non_kiln_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %c = func.call @callee(%a) : (tensor<2xf32>) -> tensor<2xf32>
    kiln.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
