exec.kernel @k
exec.program @cuda_no_block device(cuda) inputs(0) outputs(1) arena(64) {
  %0 = exec.dispatch @k grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}
