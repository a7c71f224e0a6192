exec.kernel @kiln_k0 source_ops ["linalg.matmul"]
