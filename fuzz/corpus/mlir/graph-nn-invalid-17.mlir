func.func @global_pool_rank(%x: tensor<3x8xf32>) {
  %0 = kiln.global_avg_pool %x : tensor<3x8xf32> -> tensor<3x8xf32>
  return
}
