func.func @gather(%table: tensor<30522x768xf32>, %ids: tensor<1x128xi64>,
                  %x: tensor<2x3x4xbf16>, %j: tensor<5xi32>, %k: tensor<i64>)
    -> (tensor<1x128x768xf32>, tensor<2x3x5xbf16>, tensor<2x4xbf16>) {
  %0 = kiln.gather %table[%ids] axis 0
      : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
  %1 = kiln.gather %x[%j] axis -1
      : (tensor<2x3x4xbf16>, tensor<5xi32>) -> tensor<2x3x5xbf16>
  %2 = kiln.gather %x[%k] axis 1
      : (tensor<2x3x4xbf16>, tensor<i64>) -> tensor<2x4xbf16>
  return %0, %1, %2 : tensor<1x128x768xf32>, tensor<2x3x5xbf16>, tensor<2x4xbf16>
}
