exec.kernel @k
exec.program @cpu_kernel device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.dispatch @k grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}
