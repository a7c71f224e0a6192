func.func @broadcast_element_mismatch(%x: tensor<f32>) -> tensor<4xf64> {
  %0 = kiln.broadcast %x : tensor<f32> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
