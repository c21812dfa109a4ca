// npm run bench: before_tool_call cost through the shim, through the engine alone, and through a
// plain-JS RegExp evaluation of the same policies, in one run; then an 80 KB adversarial command.
// Prints figures; asserts nothing about time (timing goals live here, not in tests).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { benchConfig, ORDINARY, CTX } from './policies.mjs';
import { makeJsEvaluator } from './js-baseline.mjs';

const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');
const plugin = require('../plugin.js');

const N = Number(process.env.BENCH_N || 50000);
const config = benchConfig();

function measure(label, fn, n = N) {
  for (let i = 0; i < Math.min(n, 5000); i++) fn();
  const times = new Float64Array(n);
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    fn();
    times[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  const wall = Number(process.hrtime.bigint() - wall0) / 1000 / n;
  const cpu = process.cpuUsage(cpu0);
  times.sort();
  const p = (q) => times[Math.round((n - 1) * q)];
  const row = { label, p50: p(0.5), p99: p(0.99), max: times[n - 1], cpu: (cpu.user + cpu.system) / n, wall };
  console.log(`${label.padEnd(44)} p50 ${row.p50.toFixed(2).padStart(8)} µs  p99 ${row.p99.toFixed(2).padStart(8)} µs  cpu/call ${row.cpu.toFixed(2).padStart(7)} µs`);
  return row;
}

function hookHandler(stateDir) {
  const api = {
    registrationMode: 'full', pluginConfig: config, logger: { info() {}, warn() {}, error: console.error, debug() {} },
    runtime: { state: { resolveStateDir: () => stateDir } }, hooks: {},
    on(name, fn) { api.hooks[name] = fn; }, registerCommand() {}, registerGatewayMethod() {}, registerService() {},
  };
  plugin.register(api);
  return api.hooks.before_tool_call;
}

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocg-bench-'));
console.log(`Scenario: exec "${ORDINARY.params.command}" (${ORDINARY.params.command.length} characters) by a standard agent; every builtin and guard (night window inactive) + 10 custom deny policies; audit on (${stateDir}).`);
console.log(`node ${process.version}, ${os.cpus()[0].model}, ${N} calls each\n`);

const handler = hookHandler(path.join(stateDir, 'hook'));
const engine = new GovernanceEngine(config, { stateDir: path.join(stateDir, 'engine') });
const engineSync = new GovernanceEngine(config, { stateDir: path.join(stateDir, 'engine-sync') });
const request = { hook: 'before_tool_call', ...CTX, ...ORDINARY };
const requestJson = JSON.stringify(request);
const jsEval = makeJsEvaluator(config);

const check = handler(ORDINARY, CTX);
if (check !== undefined) throw new Error(`scenario should be allowed, got ${JSON.stringify(check)}`);

const rows = [
  measure('(a) before_tool_call handler via the shim', () => handler(ORDINARY, CTX)),
  measure('(b) engine alone: evaluateJson (native call)', () => engine.evaluateJson(requestJson)),
  // An engine of its own: after (b)'s calls, the rate limiter's 100 000 a minute would deny.
  measure('    engine via evaluateSync (object in/out)', () => engineSync.evaluateSync(request)),
  measure('(c) plain-JS RegExp evaluation, same policies', () => jsEval(ORDINARY.toolName, ORDINARY.params, CTX)),
];

// The adversarial case runs in a fresh process: in this one, the garbage and the audit backlog
// of the 200 000 calls above would be measured along with it.
const here = path.dirname(new URL(import.meta.url).pathname);
process.stdout.write(execFileSync(process.execPath, [path.join(here, 'adversarial.mjs')], { encoding: 'utf8' }));
process.stdout.write(execFileSync(process.execPath, [path.join(here, 'output.mjs')], { encoding: 'utf8' }));
process.stdout.write(execFileSync(process.execPath, [path.join(here, 'provenance.mjs')], { encoding: 'utf8' }));
process.stdout.write(execFileSync(process.execPath, [path.join(here, 'llm.mjs')], { encoding: 'utf8' }));

console.log('\nSub-agent three levels deep (main → forge → task), 20 policies per agent, exec of an ordinary command');
{
  const perAgent = (agent) => Array.from({ length: 20 }, (_, i) => ({
    id: `${agent}-${i}`, scope: { agents: [agent] },
    rules: [{ id: `r${i}`, conditions: [{ type: 'tool', name: 'exec', params: { command: { matches: `forbidden-${agent}-${i}\\b|\\bmkfs${i}\\b` } } }],
      effect: { action: 'deny', reason: `${agent} rule ${i}` } }],
  }));
  const subConfig = { ...config, trust: { defaults: { main: 60, forge: 50, task: 70 } }, policies: [...config.policies, ...perAgent('main'), ...perAgent('forge'), ...perAgent('task')] };
  const subDir = path.join(stateDir, 'subagent');
  const sub = new GovernanceEngine(subConfig, { stateDir: path.join(subDir, 'engine') });
  // Keys as the host mints them; the lineage comes from subagent_spawned (registerSubagent).
  const FORGE = 'agent:forge:subagent:6f1c2e3a-bench-forge', TASK = 'agent:task:subagent:9d0b4c5e-bench-task';
  const spawned = (e) => { e.registerSubagent(FORGE, 'agent:main:main', 'forge'); e.registerSubagent(TASK, FORGE, 'task'); };
  spawned(sub);
  const subCtx = { agentId: 'task', sessionKey: TASK, toolName: 'exec' };
  const subReq = JSON.stringify({ hook: 'before_tool_call', ...subCtx, ...ORDINARY });
  const v = JSON.parse(sub.evaluateJson(subReq));
  if (v.action !== 'allow' || !v.crossAgent || v.crossAgent.ancestors.length !== 2) throw new Error(`sub-agent scenario misconfigured: ${JSON.stringify(v)}`);
  const subApi = {
    registrationMode: 'full', pluginConfig: subConfig, logger: { info() {}, warn() {}, error: console.error, debug() {} },
    runtime: { state: { resolveStateDir: () => path.join(subDir, 'hook') } }, hooks: {},
    on(name, fn) { subApi.hooks[name] = fn; }, registerCommand() {}, registerGatewayMethod() {}, registerService() {},
  };
  plugin.register(subApi);
  subApi.hooks.subagent_spawned({ childSessionKey: FORGE, agentId: 'forge' }, { requesterSessionKey: 'agent:main:main' });
  subApi.hooks.subagent_spawned({ childSessionKey: TASK, agentId: 'task' }, { requesterSessionKey: FORGE });
  measure('    before_tool_call handler via the shim', () => subApi.hooks.before_tool_call(ORDINARY, subCtx));
  measure('    engine alone: evaluateJson (native call)', () => sub.evaluateJson(subReq));
  sub.close();
}

console.log('\nAudit trail: records/s from JS through the engine (hashing, redaction, batched fsync, checkpoints)');
{
  const n = Number(process.env.BENCH_AUDIT_N || 300000);
  const dir = path.join(stateDir, 'throughput');
  const e = new GovernanceEngine({ ...config, builtinPolicies: { credentialGuard: true } }, { stateDir: dir });
  const reqs = Array.from({ length: 64 }, (_, i) => JSON.stringify({ ...request, params: { command: `ls -la src/${i} && git status --short` } }));
  const lat = new Float64Array(n);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    e.evaluateJson(reqs[i & 63]);
    lat[i] = Number(process.hrtime.bigint() - t);
  }
  const queued = Number(process.hrtime.bigint() - t0) / 1e9;
  e.flush();
  const total = Number(process.hrtime.bigint() - t0) / 1e9;
  const s = e.getStatus().audit;
  lat.sort();
  const at = (q) => (lat[Math.round((n - 1) * q)] / 1000).toFixed(1);
  console.log(`    ${n} records durable in ${total.toFixed(2)} s: ${Math.round(n / total).toLocaleString('en')} records/s (JS thread done after ${queued.toFixed(2)} s; ${s.checkpoints} checkpoints)`);
  console.log(`    JS-thread call latency during the burst: p50 ${at(0.5)} µs, p99.9 ${at(0.999)} µs, max ${at(1)} µs (no disk I/O on this thread for non-block records)`);
  const t1 = process.hrtime.bigint();
  const report = e.auditVerify();
  const vs = Number(process.hrtime.bigint() - t1) / 1e9;
  console.log(`    verify ${report.records} records + ${report.checkpoints} checkpoints: ${vs.toFixed(2)} s (${Math.round(report.records / vs).toLocaleString('en')} records/s), valid ${report.valid}`);
  e.close();
  const big = Number(process.env.BENCH_VERIFY_N || 1000000);
  if (big > n) {
    const e2 = new GovernanceEngine({ ...config, builtinPolicies: {} }, { stateDir: path.join(stateDir, 'verify') });
    for (let i = 0; i < big; i++) e2.evaluateJson(reqs[i & 63]);
    e2.close();
    const auditDir = path.join(stateDir, 'verify', 'governance', 'audit');
    const key = require('../index.js').auditPublicKey(path.join(stateDir, 'verify', 'governance', 'keys', 'audit-signing.key'));
    const t2 = process.hrtime.bigint();
    const r2 = require('../index.js').auditVerifyDir(auditDir, key);
    const v2 = Number(process.hrtime.bigint() - t2) / 1e9;
    const bytes = fs.readdirSync(auditDir).filter((f) => f.endsWith('.jsonl')).reduce((a, f) => a + fs.statSync(path.join(auditDir, f)).size, 0);
    console.log(`    verify a ${r2.records.toLocaleString('en')}-record log (${(bytes / 1e6).toFixed(0)} MB, ${r2.checkpoints} signed checkpoints): ${v2.toFixed(2)} s, valid ${r2.valid}`);
  }
}
const cfgFile = path.join(stateDir, 'config.json');
fs.writeFileSync(cfgFile, JSON.stringify(config));
const example = path.join(process.cwd(), 'target', 'release', 'examples', 'bench_engine');
if (fs.existsSync(example)) {
  console.log('');
  process.stdout.write(execFileSync(example, [cfgFile, path.join(stateDir, 'core')], { encoding: 'utf8' }));
}
const agents = path.join(process.cwd(), 'target', 'release', 'examples', 'bench_agents');
if (fs.existsSync(agents)) {
  console.log('\nMany agents, engine core in Rust: p50 per hook for a new agent once 10 vs 100 000 agents were seen (examples/bench_agents.rs)');
  process.stdout.write(execFileSync(agents, [cfgFile, path.join(stateDir, 'agents')], { encoding: 'utf8' }));
}
const [hook, eng, , js] = rows;
// Issue 12's goal is for the hook with every guard on; the engine row has none of its own.
console.log(`\nhook-level p50 ${hook.p50.toFixed(2)} µs (goal ≤ 10, every guard on), engine p50 ${eng.p50.toFixed(2)} µs, plain JS p50 ${js.p50.toFixed(2)} µs`);
// Closed first: an engine dropped at exit writes its trust file into the removed directory.
engine.close();
engineSync.close();
fs.rmSync(stateDir, { recursive: true, force: true });
