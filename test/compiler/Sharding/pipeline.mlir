// RUN: kiln-opt %s --kiln-pipeline='stages=3 stage=0 micro-batches=2' | FileCheck %s --check-prefix=STAGE0
// RUN: kiln-opt %s --kiln-pipeline='stages=3 stage=1 micro-batches=2' | FileCheck %s --check-prefix=STAGE1
// RUN: kiln-opt %s --kiln-pipeline='stages=3 stage=2 micro-batches=2' | FileCheck %s --check-prefix=STAGE2
// RUN: kiln-opt %s --kiln-pipeline='stages=2 stage=1' | FileCheck %s --check-prefix=WHOLE

// Pipeline parallelism on a residual MLP: three stages of consecutive ops,
// each on one of two micro-batches (rows 2 of 4). %a skips a stage: stage 0
// sends it with %r, and stage 1 uses it in its add. Each stage keeps the
// constants it reads and takes the model's input (every stage has it).

// STAGE0: kiln.pipeline = {boundary_bytes = array<i64: 128, 64>, micro_batches = 2 : i64, stage = 0 : i64, stage_flops = array<i64: 272, 272, 272>
// STAGE0-SAME: stage_weight_bytes = array<i64: 256, 256, 256>, stages = 3 : i64
// STAGE0: func.func @mlp(%[[X:.*]]: tensor<2x8xf32> {kiln.name = "input"}) -> (tensor<2x8xf32> {kiln.name = "pipeline.c0.0"}, tensor<2x8xf32> {kiln.name = "pipeline.c0.1"})
// STAGE0: %[[W:.*]] = kiln.constant dense<5.000000e-01> : tensor<8x8xf32>
// STAGE0-NEXT: %[[A:.*]] = kiln.matmul %[[X]], %[[W]] : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// STAGE0-NEXT: %[[R:.*]] = kiln.relu %[[A]] : tensor<2x8xf32>
// STAGE0-NEXT: return %[[A]], %[[R]]

// STAGE1: func.func @mlp(%{{.*}}: tensor<2x8xf32> {kiln.name = "input"}, %[[A:.*]]: tensor<2x8xf32> {kiln.name = "pipeline.c0.0"}, %[[R:.*]]: tensor<2x8xf32> {kiln.name = "pipeline.c0.1"}) -> (tensor<2x8xf32> {kiln.name = "pipeline.c1.0"})
// STAGE1: %[[W:.*]] = kiln.constant dense<2.500000e-01> : tensor<8x8xf32>
// STAGE1-NEXT: %[[B:.*]] = kiln.matmul %[[R]], %[[W]]
// STAGE1-NEXT: %[[S:.*]] = kiln.add %[[B]], %[[A]]
// STAGE1-NEXT: return %[[S]]

// STAGE2: func.func @mlp(%{{.*}}: tensor<2x8xf32> {kiln.name = "input"}, %[[S:.*]]: tensor<2x8xf32> {kiln.name = "pipeline.c1.0"}) -> (tensor<2x8xf32> {kiln.name = "output"})
// STAGE2: kiln.matmul %[[S]]
// STAGE2-NEXT: %[[T:.*]] = kiln.tanh
// STAGE2-NEXT: return %[[T]]

// Without micro-batches the stages run on the whole batch.
// WHOLE: micro_batches = 1 : i64
// WHOLE: func.func @mlp(%{{.*}}: tensor<4x8xf32> {kiln.name = "input"}, %{{.*}}: tensor<4x8xf32> {kiln.name = "pipeline.c0.0"}
// WHOLE-SAME: -> (tensor<4x8xf32> {kiln.name = "output"})
func.func @mlp(%x: tensor<4x8xf32> {kiln.name = "input"}) -> (tensor<4x8xf32> {kiln.name = "output"}) {
  %w1 = kiln.constant dense<0.5> : tensor<8x8xf32>
  %w2 = kiln.constant dense<0.25> : tensor<8x8xf32>
  %a = kiln.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = kiln.relu %a : tensor<4x8xf32>
  %b = kiln.matmul %r, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = kiln.add %b, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = kiln.matmul %s, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = kiln.tanh %c : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
