// GPU bandwidth workload: layer norm over 4096 rows of 1024 floats.
func.func @main(%x: tensor<4096x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05 : (tensor<4096x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
