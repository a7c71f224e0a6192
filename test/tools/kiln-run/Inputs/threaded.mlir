// Big enough that the schedule splits its kernels into workgroups: a
// matmul with bias, GELU via tanh, a softmax over rows (a reduction) and a
// batched matmul, for the thread-count determinism test (threads.test).
func.func @threaded(%x: tensor<96x128xf32> {kiln.name = "x"},
                    %w: tensor<128x256xf32> {kiln.name = "w"},
                    %v: tensor<4x256x64xf32> {kiln.name = "v"})
    -> (tensor<96x256xf32> {kiln.name = "probs"},
        tensor<4x96x64xf32> {kiln.name = "mixed"}) {
  %h = kiln.matmul %x, %w : (tensor<96x128xf32>, tensor<128x256xf32>) -> tensor<96x256xf32>
  %t = kiln.tanh %h : tensor<96x256xf32>
  %a = kiln.mul %h, %t : (tensor<96x256xf32>, tensor<96x256xf32>) -> tensor<96x256xf32>
  %p = kiln.softmax %a axis -1 : tensor<96x256xf32>
  %m = kiln.matmul %p, %v : (tensor<96x256xf32>, tensor<4x256x64xf32>) -> tensor<4x96x64xf32>
  return %p, %m : tensor<96x256xf32>, tensor<4x96x64xf32>
}
