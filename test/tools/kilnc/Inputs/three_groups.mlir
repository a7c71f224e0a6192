// Three fusion groups (elementwise, contraction, reduction) with named ops:
// the subject of bisect.test.
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = kiln.add %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("double")
  %b = kiln.tanh %a : tensor<4x8xf32> loc("squash")
  %m = kiln.matmul %b, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("project")
  %r = kiln.relu %m : tensor<4x8xf32> loc("activate")
  %s = kiln.softmax %r axis 1 : tensor<4x8xf32> loc("normalize")
  %e = kiln.exp %s : tensor<4x8xf32> loc("exp_after")
  return %e : tensor<4x8xf32>
}
