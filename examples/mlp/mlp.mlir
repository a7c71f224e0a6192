// A two-layer MLP (4 -> 8 -> 3) with a softmax head, written in the kiln
// dialect the way the ONNX importer produces it from a PyTorch export:
// nn.Flatten as kiln.reshape, nn.Linear as kiln.gemm with trans_b.
func.func @mlp(%x: tensor<2x1x4xf32>) -> tensor<2x3xf32> {
  %flat = kiln.reshape %x : tensor<2x1x4xf32> -> tensor<2x4xf32>

  %w1 = kiln.constant dense<[[0.5, -0.25, 0.125, 1.0], [0.0, 0.5, -0.5, 0.25],
                             [1.0, 1.0, 0.0, -1.0], [0.25, 0.25, 0.25, 0.25],
                             [-0.5, 0.0, 0.5, 0.0], [0.125, -0.125, 0.0, 1.0],
                             [0.0, 0.0, 1.0, 0.0], [-1.0, 0.5, 0.5, 0.0]]>
      : tensor<8x4xf32>
  %b1 = kiln.constant dense<0.1> : tensor<8xf32>
  %h = kiln.gemm %flat, %w1, %b1 {trans_b}
      : (tensor<2x4xf32>, tensor<8x4xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %a = kiln.relu %h : tensor<2x8xf32>

  // The second bias is computed from constants (0.5 * [0.2, 0.4, 0.6]): the
  // folder turns it into one constant.
  %half = kiln.constant dense<0.5> : tensor<f32>
  %bias_raw = kiln.constant dense<[0.2, 0.4, 0.6]> : tensor<3xf32>
  %b2 = kiln.mul %bias_raw, %half : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %w2 = kiln.constant dense<0.125> : tensor<3x8xf32>
  %logits = kiln.gemm %a, %w2, %b2 {trans_b}
      : (tensor<2x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %probs = kiln.softmax %logits axis -1 : tensor<2x3xf32>
  return %probs : tensor<2x3xf32>
}
