// Issue 14's figures: the LLM path through the shim. (1) a call no intent rule concerns, with
// the model configured, against the same config without it (the no-LLM hook must not move);
// (2) a cache hit (synchronous); (3) a call that asks the model, against a model that answers
// at once — through the host backend (api.runtime.llm.complete) and through the OpenAI-compatible
// backend against a fake server on 127.0.0.1 — which is the path's own overhead.
// Run by bench.mjs in its own process.

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { benchConfig, ORDINARY, CTX } from './policies.mjs';

const require = createRequire(import.meta.url);
const plugin = require('../plugin.js');
const N = Number(process.env.BENCH_N || 30000);
const ASKED = Number(process.env.BENCH_LLM_N || 2000);
const NO = JSON.stringify({ matches: false, confidence: 0.9, reasoning: 'an ordinary command' });

const intentPolicy = {
  id: 'intent', name: 'intent',
  rules: [{ id: 'no-destroying', conditions: [{ type: 'intent', description: 'destroys production data' }, { type: 'tool', name: 'exec' }],
    effect: { action: 'deny', reason: 'destroys production data' } }],
};
const withLlm = (llm) => ({ ...benchConfig(), llm: { enabled: true, escalationThreshold: 100, cacheTtlSeconds: 86400, ...llm },
  policies: [...benchConfig().policies, intentPolicy] });

// Removed at exit: each registration's audit trail would otherwise stay in /tmp.
const stateDirs = [];
process.on('exit', () => stateDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function hooks(config, complete) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocg-llm-bench-'));
  stateDirs.push(dir);
  const api = {
    registrationMode: 'full', pluginConfig: config, logger: { info() {}, warn() {}, debug() {}, error: console.error },
    runtime: { state: { resolveStateDir: () => dir }, llm: complete && { complete } }, hooks: {},
    on(name, fn) { api.hooks[name] = fn; }, registerCommand() {}, registerGatewayMethod() {}, registerService() {},
  };
  plugin.register(api);
  return api.hooks;
}

function p50(fn, n) {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = process.hrtime.bigint();
    fn(i);
    t[i] = Number(process.hrtime.bigint() - s) / 1000;
  }
  return t.sort()[n >> 1];
}

async function p50Async(fn, n) {
  for (let i = 0; i < 100; i++) await fn(-1 - i);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = process.hrtime.bigint();
    await fn(i);
    t[i] = Number(process.hrtime.bigint() - s) / 1000;
  }
  return t.sort()[n >> 1];
}

// A distinct command per call: every one is a question the cache has not seen.
const fresh = (i) => ({ ...ORDINARY, params: { command: `${ORDINARY.params.command} # ${i}` } });
const read = { toolName: 'read', params: { path: 'src/lib.rs' } };

console.log('\nLLM judgment (issue 14): before_tool_call through the shim, every guard on');
// The host keeps one engine per process and hands it each registration's config in turn (as on a
// config edit): each side is registered right before it is measured, rounds alternate so machine
// noise falls on both sides, and each measurement has an agent of its own (trusted as the bench's
// agent): past the bench's 100 000 calls a minute per agent the rate limiter would deny every call.
const hostModel = async () => ({ text: NO });
let agents = 0;
function side(config, complete) {
  const agentId = `${CTX.agentId}-${(agents += 1)}`;
  const trust = { ...config.trust, defaults: { ...config.trust.defaults, [agentId]: config.trust.defaults[CTX.agentId] } };
  return { h: hooks({ ...config, trust }, complete), ctx: { ...CTX, agentId, sessionKey: `agent:${agentId}:main` } };
}
const med = (xs) => xs.slice().sort((a, b) => a - b)[1];
const rounds = { off: [], on: [] };
for (let r = 0; r < 3; r++) {
  for (const [name, config, complete] of [['off', benchConfig()], ['on', withLlm({}), hostModel]]) {
    const { h, ctx } = side(config, complete);
    rounds[name].push(p50(() => h.before_tool_call(read, { ...ctx, toolName: 'read' }), Math.floor(N / 3)));
  }
}
console.log(`    no model needed (read): llm off p50 ${med(rounds.off).toFixed(2)} µs, llm on ${med(rounds.on).toFixed(2)} µs (goal: unchanged)`);

const hits = [];
const bare = [];
for (let r = 0; r < 3; r++) {
  const on = side(withLlm({}), hostModel);
  // Asked once (a new config starts an empty cache), then answered from the cache.
  await on.h.before_tool_call(ORDINARY, on.ctx);
  if (on.h.before_tool_call(ORDINARY, on.ctx) instanceof Promise) throw new Error('a cached answer must be synchronous');
  hits.push(p50(() => on.h.before_tool_call(ORDINARY, on.ctx), Math.floor(N / 3)));
  const off = side(benchConfig());
  if (off.h.before_tool_call(ORDINARY, off.ctx) !== undefined) throw new Error('the ordinary exec must be allowed');
  bare.push(p50(() => off.h.before_tool_call(ORDINARY, off.ctx), Math.floor(N / 3)));
}
console.log(`    cache hit (exec, intent answered before): p50 ${med(hits).toFixed(2)} µs (goal ≤ 20 µs); the same exec with no intent rule: ${med(bare).toFixed(2)} µs`);

const host = side(withLlm({}), hostModel);
const asked = await p50Async((i) => host.h.before_tool_call(fresh(i), host.ctx), ASKED);
console.log(`    asks the host model (answers at once): p50 ${asked.toFixed(1)} µs per call (goal: overhead ≤ 1 ms)`);

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: NO } }] }));
  });
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const endpoint = `http://127.0.0.1:${server.address().port}/v1`;
const openai = side(withLlm({ endpoint, model: 'judge' }));
const viaHttp = await p50Async((i) => openai.h.before_tool_call(fresh(1e6 + i), openai.ctx), ASKED);
// The fake server's own time, measured from the same process with Node's client.
const direct = await p50Async(() => fetch(`${endpoint}/chat/completions`, { method: 'POST', body: '{}' }).then((r) => r.text()), ASKED);
console.log(`    asks an OpenAI-compatible endpoint on 127.0.0.1: p50 ${viaHttp.toFixed(1)} µs per call; the same server answering Node's fetch: ${direct.toFixed(1)} µs`);
server.close();
