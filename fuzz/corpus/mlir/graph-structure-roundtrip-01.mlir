func.func @constant_resource() -> tensor<2xf32> {
  %0 = kiln.constant dense_resource<weights> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
