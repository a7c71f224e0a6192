// A small Open Inference Protocol client (Node's fetch), as a user of any
// KServe v2 server would write it: binary tensors both ways, many requests
// at once with mixed priorities, and malformed requests that must not take
// the server down. Prints one line per check for FileCheck.
const url = process.argv[2];

async function infer(model, body, headers = {}) {
  const response = await fetch(`${url}/v2/models/${model}/infer`, {
    method: "POST", body, headers});
  return {status: response.status, headers: response.headers,
          bytes: Buffer.from(await response.arrayBuffer())};
}

// Binary in, binary out: the JSON header, then 6 little-endian floats.
{
  const header = Buffer.from(JSON.stringify({
    inputs: [{name: "x", shape: [2, 3], datatype: "FP32",
              parameters: {binary_data_size: 24}}],
    outputs: [{name: "y", parameters: {binary_data: true}}]}));
  const data = Buffer.from(new Float32Array([0.5, -1, 2, 0, 1e-3, 10]).buffer);
  const r = await infer("affine", Buffer.concat([header, data]), {
    "Inference-Header-Content-Length": String(header.length),
    "Content-Type": "application/octet-stream"});
  const jsonLength = Number(r.headers.get("inference-header-content-length"));
  const meta = JSON.parse(r.bytes.subarray(0, jsonLength).toString());
  const tail = r.bytes.subarray(jsonLength);
  const y = new Float32Array(tail.buffer.slice(tail.byteOffset,
                                               tail.byteOffset + tail.length));
  console.log(`binary: ${r.status} ${JSON.stringify(meta.outputs[0])} ` +
              `[${Array.from(y).join(", ")}]`);
}

// 64 requests at once on two models and two priority levels: every one is
// answered with its own result.
{
  const jobs = [];
  for (let i = 0; i < 64; ++i) {
    const body = JSON.stringify({
      id: `r${i}`, parameters: {priority: i % 2},
      inputs: [{name: "x", shape: [2, 3], datatype: "FP32",
                data: [i, i, i, i, i, i]}]});
    jobs.push(infer("affine", body).then(r => {
      const out = JSON.parse(r.bytes.toString());
      const expect = [1, 2, 3, 4, 5, 6].map(c => i * c + c);
      return r.status === 200 && out.id === `r${i}` &&
             JSON.stringify(out.outputs[0].data) === JSON.stringify(expect);
    }));
  }
  const ok = (await Promise.all(jobs)).filter(Boolean).length;
  console.log(`concurrent: ${ok}/64 correct`);
}

// Malformed requests: each gets an error status and a JSON error.
const bad = [
  ["not json", "affine", "{"],
  ["wrong datatype", "affine", JSON.stringify({inputs: [
    {name: "x", shape: [2, 3], datatype: "INT32", data: [1, 2, 3, 4, 5, 6]}]})],
  ["too few elements", "affine", JSON.stringify({inputs: [
    {name: "x", shape: [2, 3], datatype: "FP32", data: [1, 2]}]})],
  ["unknown input", "affine", JSON.stringify({inputs: [
    {name: "z", shape: [2, 3], datatype: "FP32", data: [1, 2, 3, 4, 5, 6]}]})],
  ["out of range", "twice", JSON.stringify({inputs: [
    {name: "a", shape: [4], datatype: "INT64", data: [1, 2, 3, 1.5]},
    {name: "b", shape: [4], datatype: "INT64", data: [1, 2, 3, 4]}]})],
  ["bad priority", "affine", JSON.stringify({parameters: {priority: 7},
    inputs: [{name: "x", shape: [2, 3], datatype: "FP32",
              data: [1, 2, 3, 4, 5, 6]}]})],
  ["unknown model", "nosuch", "{}"],
  ["oversized body", "affine", "x".repeat(2 << 20)],
];
for (const [what, model, body] of bad) {
  const r = await infer(model, body);
  let error = "";
  try { error = JSON.parse(r.bytes.toString()).error; } catch (e) {
    error = "(not JSON)"; }
  console.log(`bad ${what}: ${r.status} ${error}`);
}
const live = await fetch(`${url}/v2/health/live`);
console.log(`still live: ${live.status}`);

// 48 requests at once for a model with a 4-row variant: whichever ran
// batched, each gets its own row back.
{
  const jobs = [];
  for (let i = 0; i < 48; ++i) {
    const body = JSON.stringify({inputs: [
      {name: "x", shape: [1, 3], datatype: "FP32", data: [i, -i, 0.5]}]});
    jobs.push(infer("rows", body).then(r => {
      if (r.status !== 200) return false;
      const y = JSON.parse(r.bytes.toString()).outputs[0];
      return JSON.stringify(y.shape) === "[1,3]" &&
             JSON.stringify(y.data) === JSON.stringify([i + 1, -2 * i + 2, 4.5]);
    }));
  }
  const ok = (await Promise.all(jobs)).filter(Boolean).length;
  console.log(`rows: ${ok}/48 correct`);
}
