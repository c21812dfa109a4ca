// The bench's before_tool_call scenario against another build of the plugin, so a figure can be
// set beside the code it replaced on the same machine in the same minutes (a VM's speed drifts
// by tens of percent within an hour). One process per side; run the sides alternately:
//
//   git worktree add ../base ec4d03f^ && (cd ../base && ln -s "$PWD/../main/node_modules" . && npm run build)
//   for r in 1 2 3; do node bench/hook-compare.mjs ../base --regex-builtins; node bench/hook-compare.mjs .; done
//
// `--regex-builtins`: the build predates destructiveGuard and remoteCodeGuard (issue 12), whose
// keys its config reader would refuse; the other builtins and the ten policies stay.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { benchConfig, ORDINARY, CTX } from './policies.mjs';

const [repoArg, flag] = process.argv.slice(2);
if (!repoArg) {
  console.error('usage: node bench/hook-compare.mjs <plugin directory> [--regex-builtins]');
  process.exit(2);
}
const repo = path.resolve(repoArg);
const require = createRequire(import.meta.url);
const plugin = require(path.join(repo, 'plugin.js'));
const { GovernanceEngine } = require(path.join(repo, 'index.js'));
const N = Number(process.env.BENCH_N || 30000);

const config = benchConfig();
if (flag === '--regex-builtins') {
  delete config.builtinPolicies.destructiveGuard;
  delete config.builtinPolicies.remoteCodeGuard;
}

function p50(fn) {
  for (let i = 0; i < 5000; i++) fn();
  const times = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const t = process.hrtime.bigint();
    fn();
    times[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  return times.sort()[N >> 1];
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocg-compare-'));
const api = {
  registrationMode: 'full', pluginConfig: config, logger: { info() {}, warn() {}, error: console.error, debug() {} },
  runtime: { state: { resolveStateDir: () => path.join(dir, 'hook') } }, hooks: {},
  on(name, fn) { api.hooks[name] = fn; }, registerCommand() {}, registerGatewayMethod() {}, registerService() {},
};
plugin.register(api);
const hook = api.hooks.before_tool_call;
if (hook(ORDINARY, CTX) !== undefined) throw new Error('the ordinary command must be allowed');
const engine = new GovernanceEngine(config, { stateDir: path.join(dir, 'engine') });
const request = JSON.stringify({ hook: 'before_tool_call', ...CTX, ...ORDINARY });
const h = p50(() => hook(ORDINARY, CTX));
const e = p50(() => engine.evaluateJson(request));
console.log(`${repo}: before_tool_call handler p50 ${h.toFixed(2)} µs, evaluateJson p50 ${e.toFixed(2)} µs`);
engine.close();
api.hooks.gateway_stop?.({}, {});
fs.rmSync(dir, { recursive: true, force: true });
