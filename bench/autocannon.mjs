// One throughput slice driven by autocannon (bench/serve.py runs it; `make bench-tools` installs it):
// `node bench/autocannon.mjs '{"url": ..., "connections": 16, "seconds": 5, "bodies": ["{...}", ...]}'`.
// Each connection sends the bodies in turn, keep-alive, as many as the server answers; prints one JSON line.
import autocannon from "autocannon";

const config = JSON.parse(process.argv[2]);
const result = await autocannon({
  url: config.url,
  connections: config.connections,
  duration: config.seconds,
  headers: { "content-type": "application/json", accept: "application/json" },
  requests: config.bodies.map((body) => ({ method: "POST", body })),
});
console.log(
  JSON.stringify({
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
  }),
);
