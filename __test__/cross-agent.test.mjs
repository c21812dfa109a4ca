// Learning trust and cross-agent governance through register(api) (seed 002 §7.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mockApi, fire, callMethod, auditRecords } from './helpers.mjs';

const require = createRequire(import.meta.url);
const plugin = require('../plugin.js');

const config = {
  trust: { defaults: { main: 60, forge: 85 } },
  policies: [
    { id: 'main-no-deploy', scope: { agents: ['main'] }, rules: [{ id: 'docker-rm',
      conditions: [{ type: 'tool', name: 'exec', params: { command: { contains: 'docker rm' } } }],
      effect: { action: 'deny', reason: 'no container removal under main' } }] },
    { id: 'forge-exec', scope: { agents: ['forge'] }, rules: [{ id: 'allow-exec', conditions: [{ type: 'tool', name: 'exec' }], effect: { action: 'allow' } }] },
    { id: 'privileged-gateway', rules: [{ id: 'gw', maxTrust: 'trusted', conditions: [{ type: 'tool', name: 'gateway' }], effect: { action: 'deny', reason: 'gateway needs privileged trust' } }] },
  ],
};

function setup(extra = {}) {
  const api = mockApi({ config: { ...config, ...extra } });
  plugin.register(api);
  // The host reports the spawn: forge runs under main's session.
  fire(api, 'subagent_spawned', { childSessionKey: 'agent:forge:run-1', agentId: 'forge', mode: 'run', runId: 'r1' },
    { runId: 'r1', childSessionKey: 'agent:forge:run-1', requesterSessionKey: 'agent:main:main' });
  return api;
}
const call = (api, agent, session, toolName, command) =>
  fire(api, 'before_tool_call', { toolName, params: { command } }, { agentId: agent, sessionKey: session });

test('a sub-agent is denied what its parent may not do, and it shows in the audit record', () => {
  const api = setup();
  const r = call(api, 'forge', 'agent:forge:run-1', 'exec', 'docker rm web');
  assert.equal(r.block, true);
  assert.match(r.blockReason, /no container removal under main \[openclaw-governance: main-no-deploy\/docker-rm\]/);
  assert.equal(call(api, 'forge', 'agent:forge:root', 'exec', 'docker rm web'), undefined, 'forge as a root agent is not bound by main');
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const rec = auditRecords(api.stateDir).find((x) => x.verdict === 'deny');
  assert.equal(rec.crossAgent.parentAgentId, 'main');
  assert.equal(rec.crossAgent.parentSessionKey, 'agent:main:main');
  assert.deepEqual(rec.crossAgent.inheritedPolicyIds, ['main-no-deploy']);
  assert.equal(rec.crossAgent.trustCeiling, 60);
});

test('a sub-agent\'s trust is capped by its parent and rule gates follow the capped tier', () => {
  const api = setup();
  const t = callMethod(api, 'governance.trust', { agentId: 'forge', sessionKey: 'agent:forge:run-1' }).payload;
  assert.equal(t.score, 85);
  assert.deepEqual(t.effective, { score: 60, tier: 'trusted' });
  assert.equal(t.ceiling.from, 'main');
  assert.equal(call(api, 'forge', 'agent:forge:run-1', 'gateway', 'restart').block, true, 'capped to trusted: the gateway rule applies');
  assert.equal(call(api, 'forge', 'agent:forge:solo', 'gateway', 'restart'), undefined, 'uncapped forge is privileged');
  fire(api, 'subagent_ended', { targetSessionKey: 'agent:forge:run-1', reason: 'done' }, { childSessionKey: 'agent:forge:run-1' });
  assert.equal(callMethod(api, 'governance.status').payload.subAgents, 0, 'the relationship ends with the sub-agent');
});

test('governance.trust.set needs operator.admin; governance.explain and /governance explain say why', () => {
  const api = setup();
  assert.equal(api.methods.get('governance.trust.set').scope, 'operator.admin');
  assert.equal(api.methods.get('governance.explain').scope, 'operator.read');
  const set = callMethod(api, 'governance.trust.set', { agentId: 'main', op: 'set', value: 40 });
  assert.equal(set.ok, true);
  assert.equal(set.payload.to.tier, 'standard');
  assert.equal(callMethod(api, 'governance.trust.set', { agentId: 'main', op: 'promote' }).ok, false);
  const x = callMethod(api, 'governance.explain', { sessionKey: 'agent:forge:run-1', tool: 'exec', params: { command: 'docker rm x' } }).payload;
  assert.deepEqual(x.ancestors, ['main']);
  assert.equal(x.decision.action, 'deny');
  assert.equal(x.decision.source, 'inherited from main');
  const text = api.commands.get('governance').handler({ args: 'explain agent:forge:run-1 exec docker rm web' }).text;
  assert.match(text, /^forge \(agent:forge:run-1\), spawned by main/);
  assert.match(text, /capped at 40 by main/);
  assert.match(text, /- main-no-deploy: inherited from main/);
  assert.match(text, /exec: DENY by main-no-deploy\/docker-rm \(inherited from main\): no container removal under main/);
});

test('after_tool_call feeds learning: varied successes raise trust, a repeated call earns once, blocks count once', () => {
  const api = setup();
  const ctx = { agentId: 'main', sessionKey: 'agent:main:main' };
  for (let i = 0; i < 30; i++) fire(api, 'after_tool_call', { toolName: 'read', params: { path: 'README.md' }, result: { ok: true } }, ctx);
  for (let i = 0; i < 5; i++) fire(api, 'after_tool_call', { toolName: 'read', params: { path: `src/f${i}.rs` }, result: { ok: true } }, ctx);
  call(api, 'main', 'agent:main:main', 'exec', 'docker rm x');
  fire(api, 'after_tool_call', { toolName: 'exec', params: {}, error: 'blocked', result: { details: { status: 'blocked' } } }, ctx);
  const t = callMethod(api, 'governance.trust', { agentId: 'main' }).payload;
  assert.deepEqual([t.signals.successCount, t.signals.uncreditedSuccesses, t.signals.violationCount], [6, 29, 1]);
  assert.equal(Math.round(t.score * 100) / 100, 60 + 0.6 - 2);
});

test('trust cannot be farmed: 250 trivial calls in a day add less than 5 points', () => {
  // The case: 250 `read README.md` lifted an agent from 15 to 40 (two tiers) in minutes.
  const api = setup({ trust: { defaults: { intern: 15 } } });
  const ctx = { agentId: 'intern', sessionKey: 'agent:intern:main' };
  for (let i = 0; i < 250; i++) fire(api, 'after_tool_call', { toolName: 'read', params: { path: 'README.md' }, result: { ok: true } }, ctx);
  for (let i = 0; i < 250; i++) fire(api, 'after_tool_call', { toolName: 'read', params: { path: `./notes/${i}.md` }, result: { ok: true } }, ctx);
  const t = callMethod(api, 'governance.trust', { agentId: 'intern' }).payload;
  assert.ok(t.score < 20, `intern at ${t.score}`);
});
