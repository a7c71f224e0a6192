func.func @fusion_no_inputs() -> tensor<2xi64> {
  %r = kiln.fusion -> tensor<2xi64> {
    %c = kiln.constant dense<[3, 4]> : tensor<2xi64>
    kiln.yield %c : tensor<2xi64>
  }
  return %r : tensor<2xi64>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
