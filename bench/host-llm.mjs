// What the host-model path costs beyond the model itself: one probeHostLlm round trip
// (JS → Rust on napi's tokio runtime → threadsafe function → JS promise → Rust → JS) against a
// host function that answers at once. Calls run one after another, so each figure is a whole
// round trip, not a share of a batch. `node bench/host-llm.mjs [calls]` after `npm run build`.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');

const calls = Number(process.argv[2] ?? 2000);
const engine = new GovernanceEngine({ audit: { enabled: false } });
engine.setHostLlm(async () => 'OK');
const request = JSON.stringify({ system: 'Reply OK.', user: 'OK?', maxTokens: 4 });

async function roundTrips(n) {
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await engine.probeHostLlm(request);
    times[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  return times.sort();
}

await roundTrips(200); // warm-up: runtime threads, JIT
const times = await roundTrips(calls);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
console.log(`host LLM probe round trip, ${calls} sequential calls: p50 ${at(0.5)} µs, p90 ${at(0.9)} µs, p99 ${at(0.99)} µs`);
