func.func @fusion_kind_not_string(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) attributes {kind = 3 : i64} -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    kiln.yield %a : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
