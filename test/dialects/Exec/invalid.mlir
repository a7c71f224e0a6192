// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of the exec dialect's verifiers and its binding parser.

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @arena_overflow device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{binds bytes [32, 96) of the arena, which has 64 bytes}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<arena[32 : 64] write>]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @input_index device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{binds input 1 of a program with 1 inputs}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<input 1[0 : 16] read>]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @output_index device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{binds output 2 of a program with 1 outputs}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<output 2[0 : 16] write>]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @writes_input device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{writes input 0: inputs are read-only}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<input 0[0 : 16] read_write>]
}

// -----

exec.program @writes_constants device(cuda) inputs(0) outputs(1) arena(64) constants(64) {
  // expected-error @+1 {{writes the constants: they are read-only}}
  %0 = exec.fill #exec.binding<constants[0 : 64] write> pattern(0 : i8)
}

// -----

// expected-error @+1 {{a CPU program has no constants buffer}}
exec.program @cpu_constants device(cpu) inputs(0) outputs(0) arena(0) constants(64) {
}

// -----

// expected-error @+1 {{counts and sizes must be non-negative}}
exec.program @negative device(cpu) inputs(-1) outputs(0) arena(0) {
}

// -----

exec.program @not_a_step device(cpu) inputs(0) outputs(0) arena(0) {
  // expected-error @+1 {{is not a step of an exec.program}}
  %c = arith.constant 0 : index
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @bad_grid device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{needs a grid of three positive dimensions}}
  %0 = exec.dispatch @d grid [0, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @cpu_block device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{a CPU dispatch has no thread block or shared memory}}
  %0 = exec.dispatch @d grid [1, 1, 1] block [32, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @cpu_grid device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{a CPU dispatch has a one-dimensional grid}}
  %0 = exec.dispatch @d grid [2, 2, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

exec.kernel @k
exec.program @cuda_no_block device(cuda) inputs(0) outputs(1) arena(64) {
  // expected-error @+1 {{a CUDA dispatch needs a thread block of three positive dimensions}}
  %0 = exec.dispatch @k grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

exec.kernel @k
exec.program @cuda_big_block device(cuda) inputs(0) outputs(1) arena(64) {
  // expected-error @+1 {{a thread block of 2048 threads exceeds CUDA's 1024}}
  %0 = exec.dispatch @k grid [1, 1, 1] block [1024, 2, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

exec.kernel @k
exec.program @cuda_shared device(cuda) inputs(0) outputs(1) arena(64) {
  // expected-error @+1 {{needs non-negative shared memory}}
  %0 = exec.dispatch @k grid [1, 1, 1] block [32, 1, 1] shared(-4) bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @no_bindings device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{binds no buffer}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings []
}

// -----

exec.program @undefined device(cpu) inputs(0) outputs(1) arena(64) {
  // expected-error @+1 {{dispatches 'missing', which is not defined}}
  %0 = exec.dispatch @missing grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

func.func private @f(%a: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @cuda_func device(cuda) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{dispatches 'f' on CUDA, which is not an exec.kernel}}
  %0 = exec.dispatch @f grid [1, 1, 1] block [32, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

exec.kernel @k
exec.program @cpu_kernel device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{dispatches 'k' on the CPU, which is not a function}}
  %0 = exec.dispatch @k grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

func.func private @f(%a: memref<64xi8>) {
  return
}
exec.program @cpu_signature device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{dispatches 'f', whose type '(memref<64xi8>) -> ()' is not (1 buffers, index, index) -> ()}}
  %0 = exec.dispatch @f grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}

// -----

exec.program @copy_direction device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{reads its source and writes its target}}
  %0 = exec.copy #exec.binding<arena[0 : 16] read> to #exec.binding<arena[16 : 16] read>
}

// -----

exec.program @copy_size device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{copies 16 bytes into 32}}
  %0 = exec.copy #exec.binding<arena[0 : 16] read> to #exec.binding<arena[16 : 32] write>
}

// -----

exec.program @copy_overlap device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{source and target overlap}}
  %0 = exec.copy #exec.binding<arena[0 : 16] read> to #exec.binding<arena[8 : 16] write>
}

// -----

exec.program @fill_width device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{has a 24-bit pattern; patterns have 8, 16, 32 or 64 bits}}
  %0 = exec.fill #exec.binding<arena[0 : 48] write> pattern(0 : i24)
}

// -----

exec.program @fill_reads device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{writes its target}}
  %0 = exec.fill #exec.binding<arena[0 : 16] read> pattern(0 : i32)
}

// -----

exec.program @fill_multiple device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{fills 6 bytes, not a multiple of its 4-byte pattern}}
  %0 = exec.fill #exec.binding<arena[0 : 6] write> pattern(0 : i32)
}

// -----

exec.program @no_ranks device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{needs at least one rank}}
  %0 = exec.collective all_gather ranks(0) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 16] write>
}

// -----

exec.program @needs_reduction device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{all_reduce needs a reduction}}
  %0 = exec.collective all_reduce ranks(2) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 16] write>
}

// -----

exec.program @no_reduction device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{all_gather takes no reduction}}
  %0 = exec.collective all_gather sum ranks(2) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 32] write>
}

// -----

exec.program @bad_element device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{cannot exchange elements of 'i1'}}
  %0 = exec.collective all_gather ranks(2) element(i1) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 32] write>
}

// -----

// Found by the MLIR fuzzer: a zero-width element divided by zero.
exec.program @zero_width_element device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{cannot exchange elements of 'i0'}}
  %0 = exec.collective all_gather ranks(2) element(i0) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 32] write>
}

// -----

exec.program @missing_recv device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{all_gather takes send and recv bindings}}
  %0 = exec.collective all_gather ranks(2) element(f32) send #exec.binding<arena[0 : 16] read>
}

// -----

exec.program @send_recv device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{send takes only send bindings}}
  %0 = exec.collective send ranks(2) peer(1) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 16] write>
}

// -----

exec.program @recv_only device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{recv takes only recv bindings}}
  %0 = exec.collective recv ranks(2) peer(1) element(f32) send #exec.binding<arena[0 : 16] read>
}

// -----

exec.program @needs_peer device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{broadcast needs a peer rank}}
  %0 = exec.collective broadcast ranks(2) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 16] write>
}

// -----

exec.program @no_peer device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{all_gather takes no peer rank}}
  %0 = exec.collective all_gather ranks(2) peer(0) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 32] write>
}

// -----

exec.program @peer_range device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{peer 2 is not a rank of 2}}
  %0 = exec.collective send ranks(2) peer(2) element(f32) send #exec.binding<arena[0 : 16] read>
}

// -----

exec.program @send_writes device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{reads its send binding}}
  %0 = exec.collective send ranks(2) peer(1) element(f32) send #exec.binding<arena[0 : 16] write>
}

// -----

exec.program @recv_reads device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{writes its recv binding}}
  %0 = exec.collective recv ranks(2) peer(1) element(f32) recv #exec.binding<arena[0 : 16] read>
}

// -----

exec.program @whole_elements device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{binds 6 bytes, not a whole number of 'f32'}}
  %0 = exec.collective send ranks(2) peer(1) element(f32) send #exec.binding<arena[0 : 6] read>
}

// -----

exec.program @gather_size device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{all_gather over 2 ranks sends 16 bytes but receives 16}}
  %0 = exec.collective all_gather ranks(2) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 16] write>
}

// -----

exec.program @scatter_size device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{reduce_scatter over 2 ranks sends 24 bytes but receives 8}}
  %0 = exec.collective reduce_scatter sum ranks(2) element(f32) send #exec.binding<arena[0 : 24] read> recv #exec.binding<arena[32 : 8] write>
}

// -----

exec.program @partial_overlap device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{send and recv partly overlap}}
  %0 = exec.collective all_reduce sum ranks(2) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[8 : 16] write>
}

// -----

exec.program @single_index device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{expected '['}}
  %0 = exec.fill #exec.binding<arena 0[0 : 16] write> pattern(0 : i32)
}

// -----

exec.program @unknown_buffer device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{unknown buffer 'scratch' (expected input, output, arena or constants)}}
  %0 = exec.fill #exec.binding<scratch[0 : 16] write> pattern(0 : i32)
}

// -----

exec.program @unknown_access device(cpu) inputs(0) outputs(0) arena(64) {
  // expected-error @+1 {{unknown access 'rw' (expected read, write or read_write)}}
  %0 = exec.fill #exec.binding<arena[0 : 16] rw> pattern(0 : i32)
}

// -----

func.func @outside() {
  // expected-error @+1 {{expects parent op 'exec.program'}}
  %0 = exec.barrier
  return
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @result_types_count device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{needs one element type per result}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>] results [#exec.binding<arena[0 : 64] write>] types [f32, f32]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @result_type device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{result #0 has type 'index'; results hold integers or floats}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>] results [#exec.binding<arena[0 : 64] write>] types [index]
}

// -----

// A zero-width element would divide by zero.
func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @result_type_i0 device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{result #0 has type 'i0'; results hold integers or floats}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>] results [#exec.binding<arena[0 : 64] write>] types [i0]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @result_size device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{result #0 of 6 bytes is not a whole number of 'f32' elements}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>] results [#exec.binding<arena[0 : 6] write>] types [f32]
}

// -----

func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @result_outside device(cpu) inputs(1) outputs(1) arena(64) {
  // expected-error @+1 {{result #0 is not inside a binding the dispatch writes}}
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<input 0[0 : 16] read>, #exec.binding<arena[0 : 32] write>] results [#exec.binding<input 0[0 : 16] write>] types [f32]
}

// -----

func.func @communicate_kind(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{send is not a group collective (all_reduce, all_gather or reduce_scatter)}}
  exec.communicate send ranks(2) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @communicate_ranks(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{needs at least one rank}}
  exec.communicate all_reduce sum ranks(0) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @communicate_reduction(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{all_reduce needs a reduction}}
  exec.communicate all_reduce ranks(2) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @communicate_gather_reduction(%a: memref<4xf32>, %b: memref<8xf32>) {
  // expected-error @+1 {{all_gather takes no reduction}}
  exec.communicate all_gather sum ranks(2) ins(%a : memref<4xf32>) outs(%b : memref<8xf32>)
  return
}

// -----

func.func @communicate_mixed(%a: tensor<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{takes tensors or buffers, not both}}
  exec.communicate all_reduce sum ranks(2) ins(%a : tensor<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @communicate_tensor_result(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{on tensors returns the type of its init}}
  exec.communicate all_reduce sum ranks(2) ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>)
  return
}

// -----

func.func @communicate_buffer_result(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{on buffers returns nothing}}
  %r = exec.communicate all_reduce sum ranks(2) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @communicate_dynamic(%a: memref<?xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{needs static shapes}}
  exec.communicate all_reduce sum ranks(2) ins(%a : memref<?xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @communicate_element(%a: memref<4xf32>, %b: memref<4xf16>) {
  // expected-error @+1 {{sends 'f32' but receives 'f16'}}
  exec.communicate all_reduce sum ranks(2) ins(%a : memref<4xf32>) outs(%b : memref<4xf16>)
  return
}

// -----

func.func @communicate_gather_size(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{all_gather over 2 ranks sends 4 elements but receives 4}}
  exec.communicate all_gather ranks(2) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @communicate_scatter_size(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{reduce_scatter over 2 ranks sends 4 elements but receives 4}}
  exec.communicate reduce_scatter sum ranks(2) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
