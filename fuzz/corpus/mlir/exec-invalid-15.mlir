exec.program @undefined device(cpu) inputs(0) outputs(1) arena(64) {
  %0 = exec.dispatch @missing grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}
