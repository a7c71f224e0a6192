// GPU bandwidth workload: softmax over 4096 rows of 1024 floats.
func.func @main(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %0 = kiln.softmax %x axis -1 : tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
