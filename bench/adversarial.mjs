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

// Shell-shaped worst cases for the parser: a 100-deep nesting of scripts fed to bash (here-docs:
// `bash -c` quoting triples the text per level, so 100 levels of it cannot be written; the model
// follows 16 and names the rest), and an 80 KB script of real commands.
function nested(depth) {
  let cmd = 'rm -rf /srv/data';
  for (let i = 0; i < depth; i++) cmd = `bash <<'E${i}'\n${cmd}\nE${i}`;
  return cmd;
}
const deep = { toolName: 'exec', params: { command: nested(100) } };
console.log(`\nShell worst cases through every guard: ${deep.params.command.length} characters of 100-deep bash here-docs; an 80 KB script`);
const deepJson = JSON.stringify({ hook: 'before_tool_call', ...CTX, ...deep });
const e2 = new GovernanceEngine(config, { stateDir: path.join(dir, 'deep') });
const dv = JSON.parse(e2.evaluateJson(deepJson));
if (dv.action === 'allow') throw new Error(`100-deep nesting was allowed: ${dv.reason}`);
measure(`    100-deep bash here-docs (${dv.action})`, () => e2.evaluateJson(deepJson), 300);
const line = 'cd src && grep -rn "TODO" lib | sort -u > /tmp/todo.txt; git diff --stat HEAD~1\n';
const script = { toolName: 'exec', params: { command: line.repeat(Math.floor((80 * 1024) / line.length)) } };
const scriptJson = JSON.stringify({ hook: 'before_tool_call', ...CTX, ...script });
measure('    80 KB script of ordinary commands', () => e2.evaluateJson(scriptJson), 100);
e2.close();
fs.rmSync(dir, { recursive: true, force: true });
