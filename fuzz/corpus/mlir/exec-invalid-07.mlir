exec.program @not_a_step device(cpu) inputs(0) outputs(0) arena(0) {
  %c = arith.constant 0 : index
}
