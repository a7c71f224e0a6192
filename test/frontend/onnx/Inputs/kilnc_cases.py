"""Shared by the *_vs_*.py scripts: writes single-graph ONNX cases with
their inputs and independently computed expected outputs, runs each through
`kilnc run`, and prints MATCH or DIFF per case and a SUMMARY line."""
import argparse
import os
import subprocess

import numpy as np
import onnx
from onnx import helper, numpy_helper

DTYPES = {np.dtype(np.float32): onnx.TensorProto.FLOAT,
          np.dtype(np.float64): onnx.TensorProto.DOUBLE,
          np.dtype(np.int64): onnx.TensorProto.INT64,
          np.dtype(np.int32): onnx.TensorProto.INT32,
          np.dtype(np.bool_): onnx.TensorProto.BOOL}


class Cases:
    def __init__(self, outdir, kilnc, rtol=1e-4, atol=1e-5):
        self.outdir, self.kilnc, self.rtol, self.atol = outdir, kilnc, rtol, atol
        self.cases = []
        os.makedirs(outdir, exist_ok=True)

    def add(self, name, nodes, inputs, expected, initializers=(),
            opsets=(("", 17),), expect_exit=0, expect_error=None):
        """`inputs` and `expected` map names to arrays (the graph's inputs and
        outputs, in order). With `expect_exit`, kilnc must fail with that code
        and print `expect_error`."""
        graph = helper.make_graph(
            nodes, name,
            [helper.make_tensor_value_info(n, DTYPES[a.dtype], list(a.shape))
             for n, a in inputs.items()],
            [helper.make_tensor_value_info(n, DTYPES[np.asarray(a).dtype], None)
             for n, a in expected.items()],
            [numpy_helper.from_array(a, n) for n, a in initializers])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid(d, v) for d, v in opsets])
        self.add_model(name, model, inputs, expected, expect_exit,
                       expect_error)

    def add_model(self, name, model, inputs, expected, expect_exit=0,
                  expect_error=None):
        """A case from a whole ModelProto (an exporter's output)."""
        base = os.path.join(self.outdir, name)
        onnx.save(model, base + ".onnx")
        for n, a in inputs.items():
            np.save("%s.%s.npy" % (base, n), a)
        self.cases.append((name, list(inputs), expected, expect_exit,
                           expect_error))

    def check(self):
        failures = 0
        for name, inputs, expected, expect_exit, expect_error in self.cases:
            base = os.path.join(self.outdir, name)
            command = [self.kilnc, "run", base + ".onnx",
                       "--output-dir", base + ".out"]
            for n in inputs:
                command += ["--input", "%s=%s.%s.npy" % (n, base, n)]
            run = subprocess.run(command, capture_output=True, text=True)
            problem = None
            if expect_exit:
                if run.returncode != expect_exit or expect_error not in run.stderr:
                    problem = "expected exit %d with %r, got %d: %s" % (
                        expect_exit, expect_error, run.returncode,
                        run.stderr.strip())
            elif run.returncode != 0:
                problem = "kilnc exit %d: %s" % (run.returncode,
                                                 run.stderr.strip())
            else:
                for n, want in expected.items():
                    want = np.asarray(want)
                    got = np.load(os.path.join(base + ".out", n + ".npy"))
                    if got.shape != want.shape or got.dtype != want.dtype:
                        problem = "%s: %s %s != %s %s" % (
                            n, got.dtype, got.shape, want.dtype, want.shape)
                    elif not np.allclose(got, want, rtol=self.rtol,
                                         atol=self.atol, equal_nan=True):
                        problem = "%s: max |error| %.3g" % (
                            n, np.max(np.abs(got - want)))
                    if problem:
                        break
            if problem:
                print("DIFF %s: %s" % (name, problem))
                failures += 1
            else:
                print("MATCH %s" % name)
        print("SUMMARY: %d match, %d differ" % (len(self.cases) - failures,
                                                 failures))


def cases_from_command_line(**kwargs):
    """Cases for `SCRIPT OUTDIR --kilnc KILNC` (every *_vs_*.py script)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--kilnc", required=True)
    args = parser.parse_args()
    return Cases(args.outdir, args.kilnc, **kwargs)
