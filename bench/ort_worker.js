// ONNX Runtime (CPU, npm onnxruntime-node) as a benchmark peer.
//
// A long-lived worker driven by bench/engine_ort.py: one JSON request per
// line on stdin, one JSON reply per line on stdout.
//   {"cmd": "load", "id": ID, "model": PATH, "inputs": {NAME: NPY}}
//       -> {"ok": true, "create_ms": T}
//   {"cmd": "bench", "id": ID, "warmup": W, "iterations": N}
//       -> {"ok": true, "times_ms": [...]}
//   {"cmd": "run", "id": ID, "out_dir": DIR}
//       -> {"ok": true, "outputs": {NAME: NPY}}
//   {"cmd": "version"} -> {"ok": true, "version": V}
// Errors reply {"ok": false, "error": MESSAGE}. Sessions use one thread
// (intra- and inter-op), sequential execution, all graph optimisations.
//
// Usage: node ort_worker.js NODE_MODULES_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const ort = require(path.join(process.argv[2], 'onnxruntime-node'));

const sessions = new Map();

// --- .npy I/O (little-endian, C order) -------------------------------------
const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array],
  '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array],
  '|b1': ['bool', Uint8Array], '|u1': ['uint8', Uint8Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file}: not .npy`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1]
    .split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const [type, Ctor] = NPY_TYPES[descr] || [];
  if (!type) throw new Error(`${file}: dtype ${descr} not supported`);
  const bytes = buf.subarray(start + headerLen);
  const data = new Ctor(bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
  Buffer.from(data.buffer).set(bytes);
  return new ort.Tensor(type, data, shape);
}

function writeNpy(file, tensor) {
  const entry = Object.entries(NPY_TYPES).find(([, [t]]) => t === tensor.type);
  if (!entry) throw new Error(`output type ${tensor.type} not supported`);
  const dims = tensor.dims.map(Number);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${entry[0]}', 'fortran_order': False, 'shape': ${shape}, }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1; prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([
    prefix, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

// --- commands ---------------------------------------------------------------
function now() { return Number(process.hrtime.bigint()) / 1e6; }

async function load(req) {
  const start = now();
  const session = await ort.InferenceSession.create(req.model, {
    intraOpNumThreads: req.threads || 1, interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const createMs = now() - start;
  const feeds = {};
  for (const [name, file] of Object.entries(req.inputs)) feeds[name] = readNpy(file);
  sessions.set(req.id, { session, feeds });
  return { create_ms: createMs };
}

async function bench(req) {
  const { session, feeds } = sessions.get(req.id);
  for (let i = 0; i < req.warmup; ++i) await session.run(feeds);
  const times = [];
  for (let i = 0; i < req.iterations; ++i) {
    const start = now();
    await session.run(feeds);
    times.push(now() - start);
  }
  return { times_ms: times };
}

async function run(req) {
  const { session, feeds } = sessions.get(req.id);
  const results = await session.run(feeds);
  fs.mkdirSync(req.out_dir, { recursive: true });
  const outputs = {};
  for (const [name, tensor] of Object.entries(results)) {
    const file = path.join(req.out_dir, name.replace(/[^A-Za-z0-9_.-]/g, '_') + '.npy');
    writeNpy(file, tensor);
    outputs[name] = file;
  }
  return { outputs };
}

const COMMANDS = {
  load, bench, run,
  version: async () => ({ version: require(path.join(process.argv[2],
    'onnxruntime-node', 'package.json')).version }),
  unload: async (req) => {
    const entry = sessions.get(req.id);
    sessions.delete(req.id);
    if (entry) await entry.session.release();
    return {};
  },
};

async function main() {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let reply;
    try {
      const req = JSON.parse(line);
      const command = COMMANDS[req.cmd];
      if (!command) throw new Error(`unknown command ${req.cmd}`);
      reply = { ok: true, ...(await command(req)) };
    } catch (error) {
      reply = { ok: false, error: String(error && error.message || error) };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
}

main();
