func.func @reduce_rank0(%x: tensor<f64>) -> tensor<f64> {
  %0 = kiln.reduce_max %x axes [] keep_dims : tensor<f64> -> tensor<f64>
  return %0 : tensor<f64>
}
