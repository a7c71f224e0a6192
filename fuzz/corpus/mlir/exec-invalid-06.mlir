exec.program @negative device(cpu) inputs(-1) outputs(0) arena(0) {
}
