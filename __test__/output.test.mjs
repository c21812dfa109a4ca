// Output validation through the binding: synchronous verdicts, trust scaling, and audit records
// that keep only the matched segments of agent output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { tempDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');

const config = {
  trust: { defaults: { main: 60, forge: 45, '*': 10 } },
  outputValidation: {
    factRegistries: [{ id: 'system', name: 'System', facts: [
      { id: 'nginx-installed', category: 'system_state', subject: 'nginx', value: { type: 'state', state: 'installed' } },
    ] }, { filePath: '~/.openclaw/plugins/openclaw-governance/generated-facts.json' }],
  },
};

test('validateOutput is synchronous and scales with trust', () => {
  const e = new GovernanceEngine(config, { stateDir: tempDir() });
  const text = 'I checked the host. nginx is not installed, so I could not restart it.';
  const untrusted = e.validateOutput({ sessionKey: 'agent:helper:main', text, hook: 'before_message_write' });
  assert.equal(untrusted.verdict, 'block');
  assert.equal(untrusted.violations[0].contradictedFactId, 'nginx-installed');
  assert.equal(untrusted.trust.tier, 'untrusted');
  assert.equal(e.validateOutput({ agentId: 'forge', text }).verdict, 'flag', 'standard: contradictions are flagged');
  assert.equal(e.validateOutput({ agentId: 'main', text: 'nginx is installed and serving.' }).verdict, 'pass');
  assert.equal(e.validateOutput({ agentId: 'main', text: 'ok' }).skipped, 'shorter than minTextLength (10)');
  assert.equal(JSON.parse(e.validateOutputJson('{oops')).verdict, 'pass', 'fails open on unreadable input');
  const logs = e.takeLogs().map((l) => l.message).join('\n');
  assert.match(logs, /registry file ~\/.openclaw\/plugins\/openclaw-governance\/generated-facts.json is not loaded/);
});

test('output verdicts are audited with matched segments only', () => {
  const e = new GovernanceEngine(config, { stateDir: tempDir() });
  const secret = 'The deploy key is AKIAXXXXXXXXXXXXXXXX and the weather is fine.';
  e.validateOutput({ sessionKey: 'agent:helper:main', text: `${secret} nginx is not installed.`, hook: 'before_message_write' });
  const [rec] = e.auditQuery({ verdict: 'output_block' });
  assert.equal(rec.context.outputValidation.triggerHook, 'before_message_write');
  assert.equal(rec.context.outputValidation.claimCount, 1);
  assert.equal(rec.context.outputValidation.violations[0].matchedText, 'nginx is not installed');
  assert.deepEqual(rec.controls, ['A.8.10', 'A.5.24', 'A.5.28']);
  assert.equal(JSON.stringify(rec).includes('weather'), false, 'the rest of the output is never logged');
  assert.equal(e.auditQuery({ category: 'system_state' }).length, 1, 'queryable by claim category');
  assert.equal(e.auditVerify().valid, true);
});
