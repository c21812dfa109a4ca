// An 80 KB `command` ("curl x " repeated, no pipe: every `curl[^|]*\|` start scans to the end)
// through the bench's policies: the engine (native call), the shim's handler, and plain-JS RegExp.
// Run by bench.mjs in its own process so nothing else's garbage or audit backlog is measured.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { benchConfig, CTX } from './policies.mjs';
import { makeJsEvaluator } from './js-baseline.mjs';

const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');
const plugin = require('../plugin.js');

const config = benchConfig();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocg-adversarial-'));
const big = { toolName: 'exec', params: { command: 'curl x '.repeat(Math.floor((80 * 1024) / 7)) } };
const bigJson = JSON.stringify({ hook: 'before_tool_call', ...CTX, ...big });

function measure(label, fn, n) {
  for (let i = 0; i < Math.min(n, 50); i++) fn();
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  times.sort((a, b) => a - b);
  const p = (q) => times[Math.round((n - 1) * q)];
  console.log(`${label.padEnd(44)} p50 ${p(0.5).toFixed(0).padStart(8)} µs  p99 ${p(0.99).toFixed(0).padStart(8)} µs  max ${times[n - 1].toFixed(0).padStart(8)} µs`);
}

console.log('\nAdversarial: an 80 KB command ("curl x " repeated, no pipe) through all builtins and patterns (fresh process)');
const engine = new GovernanceEngine(config, { stateDir: path.join(dir, 'engine') });
measure('    engine (native call)', () => engine.evaluateJson(bigJson), 300);
engine.close();
const api = {
  registrationMode: 'full', pluginConfig: config, logger: { info() {}, warn() {}, error: console.error, debug() {} },
  runtime: { state: { resolveStateDir: () => path.join(dir, 'hook') } }, hooks: {},
  on(name, fn) { api.hooks[name] = fn; }, registerCommand() {}, registerGatewayMethod() {}, registerService() {},
};
plugin.register(api);
measure('    before_tool_call handler via the shim', () => api.hooks.before_tool_call(big, CTX), 300);
const js = makeJsEvaluator(config);
measure('    plain-JS RegExp evaluation', () => js(big.toolName, big.params, CTX), 5);
fs.rmSync(dir, { recursive: true, force: true });
