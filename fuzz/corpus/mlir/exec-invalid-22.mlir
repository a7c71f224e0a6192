exec.program @fill_width device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.fill #exec.binding<arena[0 : 48] write> pattern(0 : i24)
}
