func.func @reshape_rank0(%x: tensor<f16>) -> tensor<f16> {
  %0 = kiln.reshape %x : tensor<f16> -> tensor<1x1xf16>
  %1 = kiln.reshape %0 : tensor<1x1xf16> -> tensor<f16>
  return %1 : tensor<f16>
}
