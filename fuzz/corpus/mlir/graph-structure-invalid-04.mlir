func.func @fusion_arg_type_mismatch(%x: tensor<2xf32>) -> tensor<2xf16> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf16> {
  ^bb0(%a: tensor<2xf16>):
    kiln.yield %a : tensor<2xf16>
  }
  return %r : tensor<2xf16>
}
