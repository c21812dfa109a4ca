// The shim through register(api) with a mock API shaped like the real host (HOST.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mockApi, fire, callMethod, auditRecords } from './helpers.mjs';

const require = createRequire(import.meta.url);
const plugin = require('../plugin.js');

const config = {
  failMode: 'closed',
  trust: { defaults: { main: 60, intern: 15 } },
  builtinPolicies: { credentialGuard: true, productionSafeguard: true },
  policies: [
    { id: 'shell', rules: [{ id: 'rm', conditions: [{ type: 'tool', name: 'exec', params: { command: { matches: 'rm\\s+-rf' } } }],
      effect: { action: 'deny', reason: 'no rm -rf' } }] },
    { id: 'talk', scope: { hooks: ['message_sending'], agents: ['intern'] },
      rules: [{ id: 'no-secrets', conditions: [{ type: 'context', messageContains: 'password' }], effect: { action: 'deny', reason: 'no secrets in messages' } }] },
    { id: 'ctx', rules: [{ id: 'prod-chat', conditions: [{ type: 'tool', name: 'write' }, { type: 'context', conversationContains: 'production' }],
      effect: { action: 'deny', reason: 'production was mentioned' } }] },
  ],
};
const tctx = (agent = 'main', session = `agent:${agent}:main`) => ({ agentId: agent, sessionKey: session, toolName: 'exec' });

test('exports the plugin object the host expects', () => {
  assert.equal(plugin.id, 'openclaw-governance');
  assert.equal(typeof plugin.register, 'function');
  assert.equal(plugin.register(mockApi({ config })), undefined, 'register is synchronous');
});

test('hooks are registered in every registration mode and share one engine', () => {
  const full = mockApi({ config, mode: 'full', conversationAccess: true });
  const discovery = mockApi({ config, mode: 'discovery', stateDir: full.stateDir, conversationAccess: true });
  plugin.register(full);
  plugin.register(discovery);
  for (const api of [full, discovery]) {
    for (const hook of ['before_tool_call', 'after_tool_call', 'message_sending', 'before_message_write', 'before_prompt_build', 'session_start', 'session_end', 'subagent_spawned', 'subagent_ended', 'gateway_start', 'gateway_stop']) {
      assert.ok(api.hooks.has(hook), `${api.registrationMode}: ${hook}`);
    }
    assert.equal(api.hooks.get('before_tool_call')[0].priority, 1000);
    assert.equal(api.hooks.get('after_tool_call')[0].priority, 900);
  }
  // Both registrations count on the same engine.
  fire(full, 'before_tool_call', { toolName: 'exec', params: { command: 'ls' } }, tctx());
  fire(discovery, 'before_tool_call', { toolName: 'exec', params: { command: 'ls' } }, tctx());
  assert.equal(callMethod(discovery, 'governance.status').payload.evaluations, 2);
});

test('before_tool_call: deny blocks with the reason, allow passes, and the block is audited first', () => {
  const api = mockApi({ config });
  plugin.register(api);
  const r = fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'rm -rf /srv' } }, tctx());
  assert.equal(r.block, true);
  assert.match(r.blockReason, /^no rm -rf \[openclaw-governance: shell\/rm\]$/);
  const records = auditRecords(api.stateDir);
  const rec = records.find((x) => x.verdict === 'deny');
  assert.ok(rec, 'record on disk when the handler returned');
  assert.equal(rec.executionPrevented, true);
  assert.equal(rec.ruleId, 'rm');
  assert.equal(rec.context.toolParams.command, 'rm -rf /srv');
  assert.equal(fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'ls' } }, tctx()), undefined);
});

test('escalate returns the host\'s requireApproval and reports the resolution', () => {
  const api = mockApi({ config });
  plugin.register(api);
  const r = fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'git push origin main' } }, tctx());
  const a = r.requireApproval;
  assert.ok(a, 'approval requested');
  assert.match(a.title, /approve exec by main/);
  assert.equal(a.severity, 'critical');
  assert.equal(a.timeoutMs, 300000);
  assert.deepEqual(a.allowedDecisions, ['allow-once', 'deny']);
  assert.equal(a.pluginId, 'openclaw-governance');
  a.onResolution('allow-once');
  const t = callMethod(api, 'governance.trust', { agentId: 'main' }).payload;
  assert.equal(t.signals.approvedEscalations, 1);
});

test('an allowed call still hands the engine\'s log lines to the host logger', () => {
  // The hook reads no verdict for a quiet allow: one carrying log lines must not be taken as quiet.
  const api = mockApi({ config });
  plugin.register(api);
  const r = fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'git push origin main' } }, tctx());
  r.requireApproval.onResolution('allow-once');
  r.requireApproval.onResolution('allow-once');
  assert.ok(!api.logs.some((l) => /not waiting here/.test(l.msg)), 'queued in the engine, not yet printed');
  assert.equal(fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'ls' } }, tctx()), undefined);
  const line = api.logs.find((l) => /not waiting here/.test(l.msg));
  assert.ok(line, JSON.stringify(api.logs));
  assert.equal(line.level, 'warn');
});

test('an engine from an older copy of the package, without evaluateToolCallJson, still judges every call', () => {
  const api = mockApi({ config });
  plugin.register(api);
  const engine = globalThis[Symbol.for('@vainplex/openclaw-governance')].engine;
  engine.evaluateToolCallJson = undefined;
  try {
    const again = mockApi({ config, stateDir: api.stateDir });
    plugin.register(again);
    const r = fire(again, 'before_tool_call', { toolName: 'exec', params: { command: 'rm -rf /srv' } }, tctx());
    assert.equal(r.block, true);
    assert.equal(fire(again, 'before_tool_call', { toolName: 'exec', params: { command: 'ls' } }, tctx()), undefined);
    assert.ok(!again.logs.some((l) => l.level === 'error'), JSON.stringify(again.logs));
  } finally {
    delete engine.evaluateToolCallJson;
  }
});

test('an approval the host could not deliver is recorded as unavailable with its reason, not as a denial', () => {
  // CLI and --local runs have no approval route: the host resolves `cancelled` and blocks.
  const api = mockApi({ config });
  plugin.register(api);
  const before = callMethod(api, 'governance.trust', { agentId: 'main' }).payload;
  const ctx = { ...tctx(), toolCallId: 'call-42' };
  const r = fire(api, 'before_tool_call', { toolName: 'exec', toolCallId: 'call-42', params: { command: 'git push origin main' } }, ctx);
  r.requireApproval.onResolution('cancelled');
  const hostReason = 'Plugin approval unavailable: non-interactive CLI runs have no approval-capable initiating surface.';
  fire(api, 'after_tool_call', { toolName: 'exec', toolCallId: 'call-42', params: {}, error: hostReason, result: { details: { status: 'blocked' } } }, ctx);
  const after = callMethod(api, 'governance.trust', { agentId: 'main' }).payload;
  assert.equal(after.score, before.score, 'trust untouched');
  assert.equal(after.signals.deniedEscalations, 0);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const recs = auditRecords(api.stateDir);
  const esc = recs.find((x) => x.verdict === 'escalate');
  const res = recs.find((x) => x.verdict === 'escalate_unavailable');
  assert.ok(res, JSON.stringify(recs.map((x) => x.verdict)));
  assert.equal(res.details.hostReason, hostReason);
  assert.equal(res.details.resolves, esc.id);
  assert.equal(res.details.approvalId, esc.details.approvalId);
  assert.match(r.requireApproval.description, new RegExp(esc.details.approvalId));
  assert.ok(!recs.some((x) => x.verdict === 'escalate_denied'));
});

test('after_tool_call: success counts, a blocked call is a violation only once, errors are neither', () => {
  const api = mockApi({ config });
  plugin.register(api);
  fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'rm -rf /' } }, tctx());
  fire(api, 'after_tool_call', { toolName: 'exec', params: {}, error: 'no rm -rf', result: { details: { status: 'blocked' } } }, tctx());
  fire(api, 'after_tool_call', { toolName: 'exec', params: {}, result: { ok: true } }, tctx());
  fire(api, 'after_tool_call', { toolName: 'exec', params: {}, error: 'ENOENT' }, tctx());
  const s = callMethod(api, 'governance.trust', { agentId: 'main' }).payload.signals;
  assert.deepEqual([s.successCount, s.violationCount], [1, 1]);
});

test('message_sending derives the agent from the session key and cancels', () => {
  const api = mockApi({ config });
  plugin.register(api);
  const ctx = { channelId: 'webchat', sessionKey: 'agent:intern:main' };
  const r = fire(api, 'message_sending', { to: 'webchat:x', content: 'the password is hunter2' }, ctx);
  assert.equal(r.cancel, true);
  assert.match(r.cancelReason, /no secrets in messages/);
  assert.equal(fire(api, 'message_sending', { to: 'x', content: 'the password' }, { sessionKey: 'agent:main:main' }), undefined);
});

test('before_message_write is synchronous and feeds conversation context', () => {
  const api = mockApi({ config });
  plugin.register(api);
  const write = { toolName: 'write', params: { path: 'a.txt' } };
  assert.equal(fire(api, 'before_tool_call', write, tctx()), undefined);
  const ret = fire(api, 'before_message_write', { message: { role: 'user', content: [{ type: 'text', text: 'Deploy this to production' }] } }, { sessionKey: 'agent:main:main' });
  assert.equal(ret, undefined, 'never a Promise');
  // Tool results are not conversation: they must not trigger context rules.
  fire(api, 'before_message_write', { message: { role: 'toolResult', content: 'production' } }, { sessionKey: 'agent:main:other' });
  assert.equal(fire(api, 'before_tool_call', write, tctx()).block, true);
  assert.equal(fire(api, 'before_tool_call', write, tctx('main', 'agent:main:other')), undefined);
  fire(api, 'session_end', { sessionKey: 'agent:main:main' }, {});
  assert.equal(fire(api, 'before_tool_call', write, tctx()), undefined, 'session_end forgets the conversation');
});

test('before_prompt_build injects trust and restrictions', () => {
  const api = mockApi({ config, conversationAccess: true });
  plugin.register(api);
  const r = fire(api, 'before_prompt_build', { prompt: 'hi', messages: [] }, { agentId: 'intern', sessionKey: 'agent:intern:main' });
  assert.match(r.appendSystemContext, /intern: trust tier untrusted \(score 15\)/);
  assert.match(r.appendSystemContext, /Credential files/);
});

test('a bad config with failMode closed blocks every tool call, naming the error', () => {
  const api = mockApi({ config: { failMode: 'closed', timezone: 'Europe/Berln' } });
  plugin.register(api);
  const r = fire(api, 'before_tool_call', { toolName: 'read', params: { path: 'x' } }, tctx());
  assert.equal(r.block, true);
  assert.match(r.blockReason, /timezone.*Europe\/Berln/);
  assert.ok(api.logs.some((l) => l.level === 'error' && /Europe\/Berln/.test(l.msg)), 'logged at error level');
  const status = callMethod(api, 'governance.status').payload;
  assert.equal(status.configValid, false);
});

test('a bad config with failMode open allows, logs once and audits error_fallback', () => {
  const api = mockApi({ config: { failMode: 'open', policies: [{ id: 'p', rules: [{ id: 'r', conditions: [{ type: 'nope' }], effect: { action: 'deny' } }] }] } });
  plugin.register(api);
  assert.equal(fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'ls' } }, tctx()), undefined);
  fire(api, 'before_tool_call', { toolName: 'exec', params: { command: 'ls' } }, tctx());
  assert.equal(api.logs.filter((l) => l.level === 'error').length, 1);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const recs = auditRecords(api.stateDir).filter((r) => r.context.hook === 'before_tool_call');
  assert.equal(recs.length, 2);
  assert.ok(recs.every((r) => r.verdict === 'error_fallback'));
});

test('commands and gateway methods', () => {
  const api = mockApi({ config });
  plugin.register(api);
  assert.equal(api.methods.get('governance.status').scope, 'operator.read');
  assert.equal(api.methods.get('governance.trust').scope, 'operator.read');
  const gov = api.commands.get('governance');
  assert.equal(gov.requireAuth, true);
  assert.match(gov.handler({ args: '' }).text, /failMode closed/);
  assert.match(gov.handler({ args: 'policies' }).text, /builtin-credential-guard/);
  const trust = api.commands.get('trust');
  assert.equal(trust.requireAuth, true);
  assert.equal(trust.handler({ args: 'intern' }).text, 'intern: untrusted (15)');
  assert.match(trust.handler({ args: '' }).text, /main: trusted \(60\)/);
});

test('a config edit is taken by the running engine: audit, trust locks and the chain carry on', () => {
  // The host registers the plugin again on every config edit (HOST.md). Before, the new engine
  // found writer.lock held by the old one and ran with audit and trust off until a restart.
  const first = mockApi({ config });
  plugin.register(first);
  const set = callMethod(first, 'governance.trust.set', { agentId: 'intern', op: 'lock', value: 'restricted' });
  assert.equal(set.ok, true, JSON.stringify(set.error));
  fire(first, 'before_tool_call', { toolName: 'exec', params: { command: 'ls before' } }, tctx());
  const edited = { ...config, failMode: 'open', policies: [...config.policies,
    { id: 'no-make', rules: [{ id: 'm', conditions: [{ type: 'tool', name: 'exec', params: { command: { startsWith: 'make' } } }],
      effect: { action: 'deny', reason: 'no make' } }] }] };
  const second = mockApi({ config: edited, stateDir: first.stateDir });
  plugin.register(second);
  const status = callMethod(second, 'governance.status').payload;
  assert.equal(status.failMode, 'open');
  assert.equal(status.audit.enabled, true, 'still auditing after the edit');
  assert.equal(status.trust.persisted, true, 'still persisting trust');
  const r = fire(second, 'before_tool_call', { toolName: 'exec', params: { command: 'make install' } }, tctx());
  assert.equal(r.block, true, 'the new policy applies at once');
  assert.equal(callMethod(second, 'governance.trust', { agentId: 'intern' }).payload.locked, 'restricted');
  const verified = callMethod(second, 'governance.audit.verify').payload;
  assert.equal(verified.valid, true, JSON.stringify(verified.problems));
  const recs = auditRecords(first.stateDir);
  assert.ok(recs.some((x) => x.verdict === 'deny' && x.context.toolParams?.command === 'make install'));
  assert.ok(recs.some((x) => x.verdict === 'governance.config.change'));
  assert.deepEqual(recs.map((x) => x.seq).sort((a, b) => a - b), recs.map((_, i) => i), 'one chain, nothing twice');
});

test('policies scoped to before_agent_start stop a run in before_agent_run, and say when the host will not let them', () => {
  // Before, such policies were accepted and never evaluated.
  const runs = { policies: [{ id: 'no-intern-runs', scope: { hooks: ['before_agent_start'], agents: ['intern'] },
    rules: [{ id: 'r', conditions: [{ type: 'context', messageContains: 'deploy' }], effect: { action: 'deny', reason: 'intern may not be asked to deploy' } }] }] };
  const without = mockApi({ config: runs });
  plugin.register(without);
  assert.ok(without.logs.some((l) => l.level === 'error' && /allowConversationAccess/.test(l.msg) && /no-intern-runs/.test(l.msg)));
  const api = mockApi({ config: runs, conversationAccess: true });
  plugin.register(api);
  assert.ok(!api.logs.some((l) => /allowConversationAccess/.test(l.msg)));
  const ctx = { agentId: 'intern', sessionKey: 'agent:intern:main' };
  const r = fire(api, 'before_agent_run', { prompt: 'please deploy the release', messages: [], channelId: 'webchat' }, ctx);
  assert.equal(r.outcome, 'block');
  assert.match(r.message, /intern may not be asked to deploy/);
  assert.equal(fire(api, 'before_agent_run', { prompt: 'summarise the notes', messages: [] }, ctx), undefined);
  assert.equal(fire(api, 'before_agent_run', { prompt: 'deploy', messages: [] }, { agentId: 'main', sessionKey: 'agent:main:main' }), undefined);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const recs = auditRecords(api.stateDir).filter((x) => x.context.hook === 'before_agent_start');
  assert.deepEqual(recs.map((x) => x.verdict), ['deny', 'allow', 'allow']);
  // Without such policies the hook is not registered (nothing the host would drop).
  const plain = mockApi({ config: {} });
  plugin.register(plain);
  assert.ok(!plain.hooks.has('before_agent_run'));
});

test('conversation hooks are registered only when the operator granted conversation access', () => {
  // Without the grant the host drops them and `openclaw plugins doctor` fails (seen in the real host).
  const conversation = ['before_prompt_build', 'llm_output', 'before_agent_run'];
  const cfg = { ...config, outputValidation: { hooks: { llmOutput: true } } };
  const without = mockApi({ config: cfg });
  plugin.register(without);
  for (const hook of conversation) assert.ok(!without.hooks.has(hook), hook);
  assert.ok(without.hooks.has('before_tool_call') && without.hooks.has('before_message_write'));
  assert.ok(without.logs.some((l) => l.level === 'error' && /outputValidation\.hooks\.llmOutput needs .*allowConversationAccess/.test(l.msg)));
  const granted = mockApi({ config: cfg, conversationAccess: true });
  plugin.register(granted);
  for (const hook of ['before_prompt_build', 'llm_output']) assert.ok(granted.hooks.has(hook), hook);
  assert.ok(!granted.logs.some((l) => /allowConversationAccess/.test(l.msg)));
});

test('guards resolve paths against each agent workspace from the host config (agents.list and agents.entries)', () => {
  const api = mockApi({ config: { builtinPolicies: { destructiveGuard: true } } });
  api.config = {
    agents: {
      defaults: { workspace: '/srv/default-ws' },
      list: [{ id: 'listed', workspace: '/srv/listed-ws' }],
      entries: { keyed: { workspace: '/srv/keyed-ws' } },
    },
  };
  plugin.register(api);
  const rm = (agent, dir) => fire(api, 'before_tool_call', { toolName: 'exec', params: { command: `rm -rf ${dir}/build` } }, tctx(agent));
  assert.equal(rm('listed', '/srv/listed-ws'), undefined, 'inside its own workspace (agents.list)');
  assert.equal(rm('keyed', '/srv/keyed-ws'), undefined, 'inside its own workspace (agents.entries)');
  assert.equal(rm('other', '/srv/default-ws'), undefined, 'an agent without one works in agents.defaults.workspace');
  const outside = rm('keyed', '/srv/listed-ws');
  assert.equal(outside?.block, true, "another agent's workspace is outside this one's");
  assert.match(outside.blockReason, /Destructive guard: `rm -rf \/srv\/listed-ws\/build` deletes/);
});
