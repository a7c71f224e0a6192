"""ONNX Runtime CPU (npm onnxruntime-node) through bench/ort_worker.js."""
import json
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def find_node_modules(explicit=None):
    """The node_modules folder holding onnxruntime-node, or None.

    Looked for in: the explicit path, $KILN_ORT_NODE_MODULES, then
    $KILN_BENCH_CACHE/node_modules (default ~/.cache/kiln-bench, where
    bench/setup.sh installs it).
    """
    cache = os.environ.get("KILN_BENCH_CACHE",
                           os.path.expanduser("~/.cache/kiln-bench"))
    candidates = [explicit, os.environ.get("KILN_ORT_NODE_MODULES"),
                  os.path.join(cache, "node_modules")]
    for candidate in candidates:
        if candidate and os.path.isfile(
                os.path.join(candidate, "onnxruntime-node", "package.json")):
            return os.path.abspath(candidate)
    return None


class OrtEngine:
    name = "ort"
    label = "ONNX Runtime"

    def __init__(self, node_modules, threads=1):
        self.threads = threads
        if threads != 1:
            self.name = f"ort_t{threads}"
            self.label = f"ONNX Runtime, {threads} threads"
        node = shutil.which("node")
        if not node:
            raise RuntimeError("node is not on PATH")
        self.proc = subprocess.Popen(
            [node, os.path.join(HERE, "ort_worker.js"), node_modules],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.version = self._call(cmd="version")["version"]

    def _call(self, **request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("onnxruntime worker exited")
        reply = json.loads(line)
        if not reply.pop("ok"):
            raise RuntimeError(f"onnxruntime: {reply['error']}")
        return reply

    def prepare(self, workload):
        inputs = {i["name"]: os.path.join(workload.folder, i["file"])
                  for i in workload.inputs}
        reply = self._call(cmd="load", id=workload.name,
                           model=os.path.join(workload.folder, "model.onnx"),
                           inputs=inputs, threads=self.threads)
        return {"session_create_ms": reply["create_ms"]}

    def outputs(self, workload, out_dir):
        reply = self._call(cmd="run", id=workload.name, out_dir=out_dir)
        return reply["outputs"]

    def batch(self, workload, warmup, iterations):
        """Times (ms) of `iterations` runs after `warmup` untimed ones."""
        reply = self._call(cmd="bench", id=workload.name, warmup=warmup,
                           iterations=iterations)
        return reply["times_ms"]

    def release(self, workload):
        self._call(cmd="unload", id=workload.name)

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
