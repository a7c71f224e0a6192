func.func @fusion_one_result(%x: tensor<4x8xf32>, %b: tensor<8xf32>)
    -> tensor<4x8xf32> {
  %r = kiln.fusion ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>)
      -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %s = kiln.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %t = kiln.relu %s : tensor<4x8xf32>
    kiln.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
