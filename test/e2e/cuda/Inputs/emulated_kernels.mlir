// Shapes that make the CUDA emitter pick its cooperative kernels (the e2e
// models are mostly too small for them): block reductions (< 1024 points,
// >= 4096 reduced elements), warp reductions whose last block has idle
// warps, and contractions over several 64x64 tiles with ragged edges.
// Run through kiln-cuda-emulate by ../emulated-e2e.test; references in
// emulated_kernels_cases.py.

func.func @block_reduce(%x: tensor<3x5000xf32>, %y: tensor<2x4100xf64>)
    -> (tensor<3xf32>, tensor<3x1xf32>, tensor<2xf64>) {
  %0 = kiln.reduce_sum %x axes [1] : tensor<3x5000xf32> -> tensor<3xf32>
  %1 = kiln.reduce_max %x axes [1] keep_dims : tensor<3x5000xf32> -> tensor<3x1xf32>
  %2 = kiln.reduce_sum %y axes [1] : tensor<2x4100xf64> -> tensor<2xf64>
  return %0, %1, %2 : tensor<3xf32>, tensor<3x1xf32>, tensor<2xf64>
}

func.func @warp_reduce(%x: tensor<37x100xf32>, %y: tensor<64x33xf32>, %z: tensor<9x40xi32>)
    -> (tensor<37xf32>, tensor<37xf32>, tensor<33xf32>, tensor<9xi32>) {
  %0 = kiln.reduce_sum %x axes [1] : tensor<37x100xf32> -> tensor<37xf32>
  %1 = kiln.reduce_min %x axes [1] : tensor<37x100xf32> -> tensor<37xf32>
  %2 = kiln.reduce_mean %y axes [0] : tensor<64x33xf32> -> tensor<33xf32>
  %3 = kiln.reduce_sum %z axes [1] : tensor<9x40xi32> -> tensor<9xi32>
  return %0, %1, %2, %3 : tensor<37xf32>, tensor<37xf32>, tensor<33xf32>, tensor<9xi32>
}

func.func @warp_reduce_f16(%x: tensor<5x300xf16>) -> tensor<5xf16> {
  %0 = kiln.reduce_max %x axes [1] : tensor<5x300xf16> -> tensor<5xf16>
  return %0 : tensor<5xf16>
}

func.func @softmax_rows(%x: tensor<37x100xf32>) -> tensor<37x100xf32> {
  %0 = kiln.softmax %x axis -1 : tensor<37x100xf32>
  return %0 : tensor<37x100xf32>
}

func.func @matmul_tiles(%a: tensor<70x130xf32>, %b: tensor<130x90xf32>) -> tensor<70x90xf32> {
  %0 = kiln.matmul %a, %b : (tensor<70x130xf32>, tensor<130x90xf32>) -> tensor<70x90xf32>
  return %0 : tensor<70x90xf32>
}

func.func @matmul_batched_tiles(%a: tensor<3x65x20xf32>, %b: tensor<3x20x66xf32>) -> tensor<3x65x66xf32> {
  %0 = kiln.matmul %a, %b : (tensor<3x65x20xf32>, tensor<3x20x66xf32>) -> tensor<3x65x66xf32>
  return %0 : tensor<3x65x66xf32>
}

// bf16 operands on bf16 tensor cores (casts at the boundary: .npy has no
// bf16); f32 accumulation, one rounding at the end.
func.func @matmul_bf16_tiles(%a: tensor<33x40xf32>, %b: tensor<40x70xf32>) -> tensor<33x70xf32> {
  %x = kiln.cast %a : tensor<33x40xf32> -> tensor<33x40xbf16>
  %y = kiln.cast %b : tensor<40x70xf32> -> tensor<40x70xbf16>
  %0 = kiln.matmul %x, %y : (tensor<33x40xbf16>, tensor<40x70xbf16>) -> tensor<33x70xbf16>
  %1 = kiln.cast %0 : tensor<33x70xbf16> -> tensor<33x70xf32>
  return %1 : tensor<33x70xf32>
}

// f64 takes the SIMT tiles.
func.func @matmul_f64_tiles(%a: tensor<70x33xf64>, %b: tensor<33x65xf64>) -> tensor<70x65xf64> {
  %0 = kiln.matmul %a, %b : (tensor<70x33xf64>, tensor<33x65xf64>) -> tensor<70x65xf64>
  return %0 : tensor<70x65xf64>
}
