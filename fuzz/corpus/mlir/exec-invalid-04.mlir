exec.program @writes_constants device(cuda) inputs(0) outputs(1) arena(64) constants(64) {
  %0 = exec.fill #exec.binding<constants[0 : 64] write> pattern(0 : i8)
}
