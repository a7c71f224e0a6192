// Open-loop load for kiln-serve: sends each request of a schedule at its
// time (binary tensors, keep-alive connections), whether or not earlier
// ones were answered, and waits for every answer. Latency is measured by the
// server (its request log), not here, so Node's own overhead does not count.
//
// usage: node open_loop.mjs URL SCHEDULE.csv INPUTS.json
//   SCHEDULE.csv: time_ms,model,priority per line
//   INPUTS.json: {model: {name, datatype, shape, bytes}} (zeros are sent)
import fs from "node:fs";
import http from "node:http";

const [url, schedulePath, inputsPath] = process.argv.slice(2);
const inputs = JSON.parse(fs.readFileSync(inputsPath, "utf8"));
const bodies = {};
for (const [model, input] of Object.entries(inputs)) {
  const header = Buffer.from(JSON.stringify({
    inputs: [{name: input.name, datatype: input.datatype, shape: input.shape,
              parameters: {binary_data_size: input.bytes}}]}));
  bodies[model] = {header, data: Buffer.alloc(input.bytes)};
}
const agent = new http.Agent({keepAlive: true, maxSockets: 256});
const target = new URL(url);
const schedule = fs.readFileSync(schedulePath, "utf8").trim().split("\n")
  .map(line => line.split(","))
  .map(([t, model, priority]) => ({t: Number(t), model, priority: +priority}));

function send({model, priority}) {
  const {header, data} = bodies[model];
  const json = JSON.parse(header);
  json.parameters = {priority};
  const head = Buffer.from(JSON.stringify(json));
  return new Promise(resolve => {
    const request = http.request({
      host: target.hostname, port: target.port, agent, method: "POST",
      path: `/v2/models/${model}/infer`,
      headers: {"Inference-Header-Content-Length": head.length,
                "Content-Type": "application/octet-stream",
                "Content-Length": head.length + data.length}},
      response => {
        response.resume();
        response.on("end", () => resolve(response.statusCode));
      });
    request.on("error", () => resolve(0));
    request.end(Buffer.concat([head, data]));
  });
}

const start = performance.now();
const pending = [];
for (const entry of schedule) {
  const wait = entry.t - (performance.now() - start);
  // Timers are good to about a millisecond; the simulator replays the
  // arrival times the server logged, so that jitter does not matter.
  if (wait > 0)
    await new Promise(resolve => setTimeout(resolve, wait));
  pending.push(send(entry));
}
const statuses = await Promise.all(pending);
const counts = {};
for (const status of statuses) counts[status] = (counts[status] || 0) + 1;
console.log(JSON.stringify({sent: schedule.length, statuses: counts}));
agent.destroy();
