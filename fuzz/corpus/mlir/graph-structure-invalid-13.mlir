func.func @fusion_not_isolated(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %t = kiln.relu %x : tensor<2xf32>
    kiln.yield %t : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
