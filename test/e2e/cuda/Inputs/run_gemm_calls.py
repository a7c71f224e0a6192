#!/usr/bin/python3
"""Runs each function of gemm_calls.mlir through cuBLASLt and NumPy.

  run_gemm_calls.py KILNC KILN_RUN FAKE_DRIVER MLIR WORKDIR

Compiles each function for CUDA, runs the artifact with kiln-run on the
fake driver and its fake cuBLASLt (KILN_CUDA_DRIVER = KILN_CUBLASLT =
FAKE_DRIVER) with --gemm cublaslt, so that the result comes only from the
GemmCall the compiler recorded (the fake runs no kernel code), and compares
it with NumPy. Prints one line per function.
"""
import os
import subprocess
import sys

import numpy as np

CASES = {
    "mm": lambda a, b: a @ b,
    "bmm": lambda a, b: a @ b,
    "bcast": lambda a, b: a @ b,
    "half": lambda a, b: (a.astype(np.float32) @ b.astype(np.float32)),
    "gemm_ta": lambda a, b: a.T @ b.T,
}
SHAPES = {
    "mm": ((5, 7), (7, 9), np.float32),
    "bmm": ((3, 5, 7), (3, 7, 9), np.float32),
    "bcast": ((2, 3, 5, 7), (7, 9), np.float32),
    "half": ((4, 8), (8, 6), np.float16),
    "gemm_ta": ((7, 5), (9, 7), np.float32),
}


def main():
    kilnc, kiln_run, fake, mlir, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, KILN_CUDA_DRIVER=fake, KILN_CUBLASLT=fake)
    rng = np.random.default_rng(0)
    failed = 0
    for name, reference in CASES.items():
        sa, sb, dtype = SHAPES[name]
        a = rng.standard_normal(sa).astype(dtype)
        b = rng.standard_normal(sb).astype(dtype)
        paths = [os.path.join(work, f"{name}.{x}") for x in ("a.npy", "b.npy", "kiln")]
        np.save(paths[0], a)
        np.save(paths[1], b)
        subprocess.run([kilnc, "compile", mlir, "--entry", name, "--target",
                        "cuda:sm_90", "-o", paths[2]], check=True,
                       capture_output=True)
        out = os.path.join(work, name + ".out")
        run = subprocess.run([kiln_run, paths[2], "--input", "arg0=" + paths[0],
                              "--input", "arg1=" + paths[1], "--gemm",
                              "cublaslt", "--output-dir", out], env=env,
                             capture_output=True, text=True)
        choice = [l for l in run.stderr.splitlines() if "gemm:" in l]
        if run.returncode != 0:
            print(f"FAIL {name}: kiln-run exit {run.returncode}: {run.stderr.strip()}")
            failed += 1
            continue
        got = np.load(os.path.join(out, "result0.npy")).astype(np.float32)
        want = reference(a, b).astype(np.float32)
        tol = 1e-2 if dtype == np.float16 else 1e-5
        error = float(np.max(np.abs(got - want)))
        ok = got.shape == want.shape and error <= tol * (1 + np.max(np.abs(want)))
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {name}: max abs error {error:.2g}; "
              f"{choice[0].split('gemm: ')[1] if choice else 'no GEMM call'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
