func.func @batch_norm(%x: tensor<1x64x56x56xf32>, %s: tensor<64xf32>, %b: tensor<64xf32>,
                      %m: tensor<64xf32>, %v: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %0 = kiln.batch_norm %x, %s, %b, %m, %v epsilon 1.0e-05
      : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
      -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}
