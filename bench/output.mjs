// validateOutput from JS: a ~2 000-character response with ~25 claims against 3 registries of 30
// facts each, and 100 KB of adversarial text. Run by bench.mjs in its own process.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');

const registries = ['infra', 'team', 'features'].map((reg, r) => ({
  id: reg,
  name: reg,
  facts: Array.from({ length: 30 }, (_, i) => (r === 0
    ? { id: `svc-${i}`, category: 'system_state', subject: `svc${i}`, value: { type: 'state', state: 'installed' } }
    : r === 1
      ? { id: `person-${i}`, category: 'entity_name', subject: `role${i}`, value: { type: 'name', correctName: `Person${i}` } }
      : { id: `feature-${i}`, category: 'existence', subject: `feature${i}`, value: { type: 'exists', exists: true } })),
}));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocg-output-'));
const engine = new GovernanceEngine({ trust: { defaults: { writer: 45 } }, outputValidation: { factRegistries: registries } }, { stateDir: dir });

const sentences = [];
for (let i = 0; sentences.join(' ').length < 1900; i++) {
  const k = i % 5;
  sentences.push(k === 0 ? `svc${i % 30} is not installed on the host.`
    : k === 1 ? `The pipeline is broken since this morning.`
      : k === 2 ? `There is no feature${i % 30} in this release.`
        : k === 3 ? `We looked at the release notes first and compared them with last week.`
          : `The team read the logs together.`);
}
const text = sentences.join(' ');
const request = { agentId: 'writer', sessionKey: 'agent:writer:main', text, hook: 'before_message_write' };
const check = engine.validateOutput(request);

// The event loop turns every 100 calls (outside the timing), as it does between the host's
// messages: Node runs the finalizers of native objects only then, so a loop that never yields
// keeps every report's native memory (~0.5 GB over 20 000 calls here) and ends up measuring
// the kernel zeroing fresh pages, not the validation.
async function measure(label, fn, n) {
  for (let i = 0; i < Math.min(n, 2000); i++) fn();
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) await new Promise(setImmediate);
    const t = process.hrtime.bigint();
    fn();
    times[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  times.sort();
  const p = (q) => times[Math.round((n - 1) * q)];
  console.log(`${label.padEnd(44)} p50 ${p(0.5).toFixed(1).padStart(8)} µs  p99 ${p(0.99).toFixed(1).padStart(8)} µs  max ${times[n - 1].toFixed(0).padStart(8)} µs`);
}

console.log(`\nOutput validation (fresh process): ${text.length} characters, ${check.claims.length} claims, ${check.violations.length} violations (verdict ${check.verdict}), 3 registries × 30 facts, standard-trust agent`);
await measure('    validateOutput (verdict; what the hook reads)', () => engine.validateOutput(request).verdict, 20000);
await measure('    validateOutput, then every claim read', () => engine.validateOutput(request).claims.length, 5000);
const json = JSON.stringify(request);
await measure('    validateOutputJson (whole result as JSON)', () => engine.validateOutputJson(json), 5000);
const adversarial = { agentId: 'writer', text: 'a-'.repeat(50000), hook: 'before_message_write' };
const prefixes = { agentId: 'writer', text: 'the service is not '.repeat(5300).slice(0, 100000), hook: 'before_message_write' };
await measure('    100 KB "a-" × 50 000 (first 10 000 chars: maxTextLength)', () => engine.validateOutput(adversarial).verdict, 200);
await measure('    100 KB of claim prefixes (first 10 000 chars)', () => engine.validateOutput(prefixes).verdict, 200);
engine.close();
// The whole 100 KB: maxTextLength raised past it.
const wholeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocg-output-'));
const whole = new GovernanceEngine({ trust: { defaults: { writer: 45 } }, outputValidation: { factRegistries: registries, performance: { maxTextLength: 200000, maxEvalUs: 1000000 } } }, { stateDir: wholeDir });
await measure('    100 KB "a-" × 50 000, all of it', () => whole.validateOutput(adversarial).verdict, 200);
await measure('    100 KB of claim prefixes, all of it', () => whole.validateOutput(prefixes).verdict, 200);
// One 100 KB sentence that is nothing but claims: anchors everywhere, no sentence end.
const claimsOnly = { agentId: 'writer', text: 'svc1 is not installed and '.repeat(3900).slice(0, 100000), hook: 'before_message_write' };
await measure('    100 KB, one sentence of claims, all of it', () => whole.validateOutput(claimsOnly).verdict, 200);
whole.close();
fs.rmSync(wholeDir, { recursive: true, force: true });
fs.rmSync(dir, { recursive: true, force: true });
