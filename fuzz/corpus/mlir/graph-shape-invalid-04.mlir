func.func @reshape_dynamic(%x: tensor<2x3xf32>) -> tensor<?xf32> {
  %0 = kiln.reshape %x : tensor<2x3xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
