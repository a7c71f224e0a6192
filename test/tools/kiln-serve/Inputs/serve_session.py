#!/usr/bin/env python3
"""Runs kiln-serve for one test: starts it on a free port, runs each step
(a shell command with $PORT and $URL substituted) and prints the command,
its output and exit status for FileCheck, then stops the server with
SIGTERM and prints its exit status and what it wrote to stderr.

usage: serve_session.py STEPS_FILE -- kiln-serve ARGS...
Lines of STEPS_FILE starting with '#' are comments.
"""
import os
import subprocess
import sys
import tempfile
import time


def main():
    split = sys.argv.index("--")
    steps_file, server = sys.argv[1], sys.argv[split + 1:]
    work = tempfile.mkdtemp()
    port_file = os.path.join(work, "port")
    log = open(os.path.join(work, "stderr"), "w+")
    proc = subprocess.Popen(server + ["--port", "0", "--port-file", port_file],
                            stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + 60
    while not os.path.exists(port_file):
        if proc.poll() is not None or time.time() > deadline:
            log.seek(0)
            print("server did not start (exit %s): %s" % (proc.poll(),
                                                           log.read()))
            return 1
        time.sleep(0.05)
    port = open(port_file).read().strip()
    env = dict(os.environ, PORT=port, URL="http://127.0.0.1:" + port)
    for line in open(steps_file):
        command = line.strip()
        if not command or command.startswith("#"):
            continue
        result = subprocess.run(command, shell=True, env=env, text=True,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, timeout=300)
        print("$ " + command)
        print(result.stdout.rstrip("\n"))
        print("[exit %d]" % result.returncode)
        sys.stdout.flush()
    proc.terminate()
    try:
        code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = "hung"
    log.seek(0)
    print("server exit %s" % code)
    print("server stderr: " + log.read().replace("\n", " | "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
