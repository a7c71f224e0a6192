#!/usr/bin/python3
"""Compiles every public function of MLIR models, or ONNX models, for CUDA.

Usage:
  check_ptx.py --kilnc PATH --ptxas PATH --arch 90 [-j N] --workdir DIR
               MODEL...

For each public function of each .mlir model (split out as check_e2e.py
does, so each kilnc run compiles one function) and for each .onnx model,
this runs

  kilnc compile MODEL --entry FN --target cuda:sm_ARCH --emit=ptx -o F.ptx
  ptxas -arch=sm_ARCH F.ptx

and prints ``PASS name``/``FAIL name: why`` and a ``SUMMARY:`` line with the
number of functions and of kernels (.entry directives) that assembled.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))

from check_e2e import FUNC_RE, ModelText  # noqa: E402


def jobs_for(model):
    if model.endswith(".onnx"):
        return [(os.path.basename(model), model, None)]
    text = ModelText(model)
    jobs = []
    for name in text.funcs:
        with open(model) as f:
            for line in f:
                m = FUNC_RE.match(line)
                if m and m.group(2) == name and m.group(1) == "private":
                    break
            else:
                jobs.append(("%s:%s" % (os.path.basename(model), name), model,
                             name))
    return jobs, text


def run(args, label, model, entry, text):
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", label)
    path = model
    if entry is not None:
        path = os.path.join(args.workdir, safe + ".mlir")
        with open(path, "w") as f:
            f.write(text.only(entry) or open(model).read())
    ptx = os.path.join(args.workdir, safe + ".ptx")
    cmd = [args.kilnc, "compile", path, "--target", "cuda:sm_%d" % args.arch,
           "--emit=ptx", "-o", ptx]
    if entry is not None:
        cmd += ["--entry", entry]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return label, False, "kilnc exit %d: %s" % (
            r.returncode, r.stderr.strip().splitlines()[-1:]), 0
    kernels = sum(1 for line in open(ptx) if line.startswith(".visible .entry"))
    r = subprocess.run([args.ptxas, "-arch=sm_%d" % args.arch, ptx,
                        "-o", os.devnull], capture_output=True, text=True)
    if r.returncode != 0:
        return label, False, "ptxas: " + r.stderr.strip()[:500], kernels
    return label, True, "", kernels


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kilnc", required=True)
    p.add_argument("--ptxas", required=True)
    p.add_argument("--arch", type=int, default=90)
    p.add_argument("--workdir", required=True)
    p.add_argument("-j", type=int, default=2)
    p.add_argument("models", nargs="+")
    args = p.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    work = []
    for model in args.models:
        if model.endswith(".onnx"):
            work.append((os.path.basename(model), model, None, None))
            continue
        jobs, text = jobs_for(model)
        work += [(label, m, entry, text) for label, m, entry in jobs]
    passed = failed = kernels = 0
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for label, ok, why, count in pool.map(lambda w: run(args, *w), work):
            kernels += count if ok else 0
            if ok:
                passed += 1
                print("PASS %s (%d kernels)" % (label, count))
            else:
                failed += 1
                print("FAIL %s: %s" % (label, why))
    print("SUMMARY: %d passed, %d failed, %d kernels assembled" %
          (passed, failed, kernels))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
