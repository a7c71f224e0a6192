func.func @reduce_axis_rank0(%x: tensor<f32>) -> tensor<f32> {
  %0 = kiln.reduce_max %x axes [0] : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}
