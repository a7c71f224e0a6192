// GPU bandwidth workload: 8 elementwise ops over 4M floats (16 MiB in,
// 16 MiB out), one fused kernel. scripts/gpu-check.sh compares its
// throughput with a device-to-device copy of the same traffic.
func.func @main(%x: tensor<4194304xf32>) -> tensor<4194304xf32> {
  %c = kiln.constant dense<0.5> : tensor<f32>
  %0 = kiln.mul %x, %c : (tensor<4194304xf32>, tensor<f32>) -> tensor<4194304xf32>
  %1 = kiln.tanh %0 : tensor<4194304xf32>
  %2 = kiln.add %1, %x : (tensor<4194304xf32>, tensor<4194304xf32>) -> tensor<4194304xf32>
  %3 = kiln.sigmoid %2 : tensor<4194304xf32>
  %4 = kiln.mul %3, %2 : (tensor<4194304xf32>, tensor<4194304xf32>) -> tensor<4194304xf32>
  %5 = kiln.relu %4 : tensor<4194304xf32>
  %6 = kiln.sub %5, %c : (tensor<4194304xf32>, tensor<f32>) -> tensor<4194304xf32>
  %7 = kiln.abs %6 : tensor<4194304xf32>
  return %7 : tensor<4194304xf32>
}
