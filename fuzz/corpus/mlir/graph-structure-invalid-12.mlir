func.func @fusion_nested(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %i = kiln.fusion ins(%a : tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%b: tensor<2xf32>):
      %t = kiln.relu %b : tensor<2xf32>
      kiln.yield %t : tensor<2xf32>
    }
    kiln.yield %i : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
