exec.program @fill_reads device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.fill #exec.binding<arena[0 : 16] read> pattern(0 : i32)
}
