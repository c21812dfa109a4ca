// The native binding through the package entry (index.js), as a user's code would load it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createRequire } from 'node:module';
import { tempDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { GovernanceEngine, validateConfig } = require('../index.js');

const denyRm = {
  policies: [{ id: 'shell', rules: [{ id: 'rm', conditions: [{ type: 'tool', name: 'exec', params: { command: { matches: 'rm\\s+-rf' } } }],
    effect: { action: 'deny', reason: 'no rm -rf' } }] }],
};
const call = (command, extra = {}) => ({ hook: 'before_tool_call', agentId: 'main', sessionKey: 'agent:main:main', toolName: 'exec', params: { command }, ...extra });

test('a bad config throws an Error with a code and every problem', () => {
  assert.throws(() => new GovernanceEngine({ timezone: 'Mars/Base', failmode: 'closed' }), (err) => {
    assert.equal(err.code, 'GOVERNANCE_CONFIG_INVALID');
    assert.deepEqual(err.details.map((d) => d.path).sort(), ['failmode', 'timezone']);
    assert.match(err.message, /Mars\/Base/);
    return true;
  });
  assert.deepEqual(validateConfig({}), []);
});

test('evaluate returns an already-settled Promise with the verdict', async () => {
  const e = new GovernanceEngine(denyRm);
  const p = e.evaluate(call('rm -rf /'));
  assert.match(inspect(p), /action: 'deny'/, 'settled before any tick');
  const v = await p;
  assert.equal(v.action, 'deny');
  assert.equal(v.reason, 'no rm -rf');
  assert.equal(v.ruleId, 'rm');
  assert.equal(typeof v.evaluationUs, 'number');
  assert.deepEqual(Object.keys(v.risk).sort(), ['level', 'score']);
  assert.equal((await e.evaluate(call('ls'))).action, 'allow');
});

test('unreadable input never throws: it follows failMode', () => {
  const closed = new GovernanceEngine({ failMode: 'closed' });
  const v = JSON.parse(closed.evaluateJson('{not json'));
  assert.equal(v.action, 'deny');
  assert.match(v.reason, /unreadable evaluation request/);
  const open = new GovernanceEngine({ failMode: 'open' });
  assert.equal(JSON.parse(open.evaluateJson('[]')).action, 'allow');
  assert.equal(open.evaluateSync({ hook: 'before_lunch' }).error, 'unknown hook "before_lunch"');
});

test('evaluateToolCallJson: null for a quiet allow (still audited), the verdict otherwise', () => {
  const e = new GovernanceEngine({
    policies: [...denyRm.policies, { id: 'push', rules: [{ id: 'ask', conditions: [{ type: 'tool', name: 'exec', params: { command: { startsWith: 'git push' } } }],
      effect: { action: 'escalate', reason: 'pushes need a human' } }] }],
  }, { stateDir: tempDir() });
  assert.equal(e.evaluateToolCallJson(JSON.stringify(call('ls -la'))), null);
  const deny = JSON.parse(e.evaluateToolCallJson(JSON.stringify(call('rm -rf /'))));
  assert.deepEqual([deny.action, deny.ruleId], ['deny', 'rm']);
  const esc = JSON.parse(e.evaluateToolCallJson(JSON.stringify(call('git push origin main'))));
  assert.equal(esc.action, 'escalate');
  assert.match(esc.approval.id, /^gov-/);
  // The same verdicts as evaluateJson gives, and the allow is in the trail like the others.
  assert.equal(JSON.parse(e.evaluateJson(JSON.stringify(call('ls -la')))).action, 'allow');
  e.flush();
  const allowed = e.auditQuery({ verdict: 'allow' }).map((r) => r.context.toolParams.command);
  assert.deepEqual(allowed, ['ls -la', 'ls -la']);
  // A log line waiting in the engine makes an allow worth reading.
  e.resolveApproval('gov-nobody', 'deny');
  const logged = JSON.parse(e.evaluateToolCallJson(JSON.stringify(call('ls'))));
  assert.equal(logged.action, 'allow');
  assert.match(logged.logs[0].message, /gov-nobody .*not waiting here/);
  assert.equal(e.evaluateToolCallJson(JSON.stringify(call('ls'))), null, 'each line is handed over once');
  // Unreadable input follows failMode here too: open allows quietly, closed denies.
  assert.equal(e.evaluateToolCallJson('{not json'), null);
  const closed = new GovernanceEngine({ failMode: 'closed' }, { stateDir: tempDir() });
  assert.equal(JSON.parse(closed.evaluateToolCallJson('{not json')).action, 'deny');
  e.close();
  closed.close();
});

test('a lone surrogate in a request is read as U+FFFD, not as unreadable input that fails open', () => {
  const e = new GovernanceEngine({ ...denyRm, failMode: 'open' }, { stateDir: tempDir() });
  // JSON.stringify writes it as an escape JSON parsers refuse; unread, it would take failMode.
  const v = e.evaluateSync(call('rm -rf / \uD800'));
  assert.equal(v.action, 'deny');
  assert.equal(v.ruleId, 'rm');
  assert.equal(v.error, undefined);
  e.recordOutcome({ agentId: 'main', params: { command: '\uDC00' } }, 'blocked');
  assert.equal(e.getTrust('main').signals.violationCount, 1, 'the outcome is recorded for its agent');
  const r = JSON.parse(e.validateOutputJson(JSON.stringify({ agentId: 'main', text: 'all good \uD800 here, nothing to see' })));
  assert.equal(r.error, undefined);
  e.close();
});

test('a request nested too deeply to read is refused whatever failMode says', () => {
  const e = new GovernanceEngine({ ...denyRm, failMode: 'open' }, { stateDir: tempDir() });
  let deep = 1;
  for (let i = 0; i < 200; i++) deep = [deep];
  const v = e.evaluateSync(call('ls', { params: { command: 'ls', deep } }));
  assert.equal(v.action, 'deny');
  assert.match(v.reason, /nested too deeply/);
  let shallow = 1;
  for (let i = 0; i < 20; i++) shallow = [shallow];
  assert.equal(e.evaluateSync(call('ls', { params: { command: 'ls', shallow } })).action, 'allow');
  const r = e.validateOutput({ agentId: { deep }, text: 'nginx is not installed on this host.' });
  assert.equal(r.verdict, 'block');
  assert.match(r.error, /nested too deeply/);
  e.close();
});

test('tolerant construction follows failMode instead of throwing', () => {
  const e = new GovernanceEngine({ failMode: 'closed', policies: 42 }, { strict: false });
  const status = e.getStatus();
  assert.equal(status.configValid, false);
  assert.equal(status.configErrors[0].path, 'policies');
  const v = e.evaluateSync(call('ls'));
  assert.equal(v.action, 'deny');
  assert.match(v.reason, /policies/);
  assert.ok(v.logs.some((l) => l.level === 'error'));
});

test('outcomes feed trust signals; a block is a violation, not a success', () => {
  const e = new GovernanceEngine(denyRm);
  e.evaluateSync(call('rm -rf /'));
  e.recordOutcome({ agentId: 'main' }, 'blocked');
  e.recordOutcome({ agentId: 'main' }, 'success');
  e.recordOutcome({ agentId: 'main' }, 'error');
  const t = e.getTrust('main');
  // 60 − 2 (violation) + 0.1 (success): the tool error counts for nothing.
  assert.equal(t.score, 58.1);
  assert.equal(t.tier, 'standard');
  assert.deepEqual([t.signals.successCount, t.signals.violationCount], [1, 1]);
  assert.ok(e.getTrust().agents.some((a) => a.agentId === 'main'));
});

test('status names policies and audit location; flush and close work', () => {
  const dir = tempDir();
  const e = new GovernanceEngine({ builtinPolicies: { credentialGuard: true } }, { stateDir: dir });
  e.evaluateSync(call('ls'));
  e.flush();
  const s = e.getStatus();
  // Self-protection is on by default; a command guard brings the opaque-command rule.
  assert.deepEqual(s.policies.map((p) => p.id), ['builtin-self-protection', 'builtin-credential-guard', 'builtin-opaque-command']);
  assert.equal(s.audit.written, 1);
  assert.equal(s.audit.dir, `${dir}/governance/audit`);
  assert.equal(JSON.stringify(s).includes('apiKey'), false);
  e.close();
});

test('params that are not an object are refused whatever failMode says, not judged as {}', () => {
  // A list or a string slips past every params matcher if it is read as {}.
  for (const failMode of ['open', 'closed']) {
    const e = new GovernanceEngine({ ...denyRm, failMode }, { stateDir: tempDir() });
    for (const params of [['rm', '-rf', '/'], 'rm -rf /', 42]) {
      const v = e.evaluateSync({ hook: 'before_tool_call', agentId: 'main', toolName: 'exec', params });
      assert.equal(v.action, 'deny', `${failMode} ${JSON.stringify(params)}`);
      assert.match(v.reason, /params are not an object/);
    }
    assert.equal(e.evaluateSync({ hook: 'before_tool_call', agentId: 'main', toolName: 'exec', params: null }).action, 'allow', 'no params: nothing to judge');
    const rec = e.auditQuery({ verdict: 'error_fallback' }).at(-1);
    assert.equal(rec.executionPrevented, true);
    assert.equal(rec.context.agentId, 'main');
    assert.equal(rec.context.toolParams.invalidParams, 42);
    e.close();
  }
});
