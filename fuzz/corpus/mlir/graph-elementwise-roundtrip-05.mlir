func.func @hardsigmoid_leaky_relu(%x: tensor<4xf32>, %h: tensor<4xf16>)
    -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) {
  %0 = kiln.hardsigmoid %x alpha 0.2 beta 0.5 : tensor<4xf32>
  %1 = kiln.hardsigmoid %h alpha 0.16666666666666666 beta 0.5 : tensor<4xf16>
  %2 = kiln.leaky_relu %x alpha 0.01 : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>
}
