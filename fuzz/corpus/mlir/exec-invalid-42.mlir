exec.program @unknown_buffer device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.fill #exec.binding<scratch[0 : 16] write> pattern(0 : i32)
}
