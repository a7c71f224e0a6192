func.func @fusion_no_yield(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %t = kiln.relu %a : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
