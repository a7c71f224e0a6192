exec.program @cpu_constants device(cpu) inputs(0) outputs(0) arena(0) constants(64) {
}
