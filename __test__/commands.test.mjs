// Chat commands through a host-shaped dispatcher: who may change trust is decided by what the
// host says about the sender, never by how a sender id is spelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { mockApi, fire, auditRecords } from './helpers.mjs';

const require = createRequire(import.meta.url);
const plugin = require('../plugin.js');

/**
 * What OpenClaw 2026.9.6 does between a chat message and a plugin command handler
 * (dist/plugin-command-execution-*.mjs, executeRegisteredPluginCommand): requireAuth refuses a
 * sender the host did not authorize; requiredScopes refuses a gateway client without the scope and
 * a channel sender who is not an owner; senderIsOwner reaches the handler only for commands that
 * declare requiredScopes (canExposeSenderIsOwner); agentId is the agent owning the session the
 * command was typed into, not the sender.
 */
function dispatch(api, name, facts) {
  const command = api.commands.get(name);
  if (command.requireAuth !== false && !facts.isAuthorizedSender) return { text: '⚠️ This command requires authorization.' };
  const required = command.requiredScopes ?? [];
  if (required.length) {
    const scopes = Array.isArray(facts.gatewayClientScopes) ? new Set(facts.gatewayClientScopes) : undefined;
    const missing = scopes ? required.find((s) => !scopes.has('operator.admin') && !scopes.has(s)) : required[0];
    if (missing && (scopes !== undefined || facts.senderIsOwner !== true)) return { text: `⚠️ This command requires gateway scope: ${missing}.` };
  }
  const { senderIsOwner, ...rest } = facts;
  const ctx = {
    ...rest,
    ...(required.length ? { senderIsOwner } : {}),
    commandBody: `/${name}${facts.args ? ` ${facts.args}` : ''}`,
    config: {},
    requestConversationBinding: async () => ({ status: 'error' }),
    detachConversationBinding: async () => ({ removed: false }),
    getCurrentConversationBinding: async () => null,
  };
  return command.handler(ctx);
}

// The senders, as the host describes them (dist/command-auth-*.mjs, session-sharing-*.mjs).
const SENDERS = {
  // Control UI over the gateway: Provider webchat, no SenderId for operator UIs, owner by operator.admin.
  webchatOwner: { channel: 'webchat', isAuthorizedSender: true, senderIsOwner: true,
    gatewayClientScopes: ['operator.admin', 'operator.read', 'operator.write'], agentId: 'main', sessionKey: 'agent:main:main' },
  webchatReader: { channel: 'webchat', isAuthorizedSender: true, senderIsOwner: false,
    gatewayClientScopes: ['operator.read'], agentId: 'main', sessionKey: 'agent:main:main' },
  // A chat channel: the sender's channel id; owner when it matches commands.ownerAllowFrom.
  channelOwner: { channel: 'telegram', senderId: '123456789', from: 'telegram:123456789', isAuthorizedSender: true,
    senderIsOwner: true, agentId: 'main', sessionKey: 'agent:main:telegram:direct:123456789' },
  channelUser: { channel: 'telegram', senderId: '987654321', from: 'telegram:987654321', isAuthorizedSender: true,
    senderIsOwner: false, agentId: 'main', sessionKey: 'agent:main:telegram:direct:987654321' },
  // An agent's own chat.send through its gateway tool: a synthetic client with the method's
  // least-privilege scope (operator.write for chat.send) and no sender id; text it sends with
  // sessions_send arrives as an inter-session run, not a command.
  agentViaGateway: { channel: 'webchat', isAuthorizedSender: true, senderIsOwner: false,
    gatewayClientScopes: ['operator.write'], agentId: 'intern', sessionKey: 'agent:intern:main' },
  // The same with read access too, so that the handler itself has to say no.
  agentWithRead: { channel: 'webchat', isAuthorizedSender: true, senderIsOwner: false,
    gatewayClientScopes: ['operator.read', 'operator.write'], agentId: 'intern', sessionKey: 'agent:intern:main' },
  interSession: { channel: 'webchat', isAuthorizedSender: false, senderIsOwner: false, agentId: 'main', sessionKey: 'agent:main:main' },
};

function setup() {
  const api = mockApi({ config: { trust: { defaults: { main: 60, forge: 85, intern: 15 } } } });
  plugin.register(api);
  return api;
}
const trust = (api, facts, args) => dispatch(api, 'trust', { ...facts, args }).text;
const governance = (api, facts, args) => dispatch(api, 'governance', { ...facts, args }).text;

test('the owner changes trust from their own webchat session, the main agent\'s included', () => {
  const api = setup();
  assert.equal(trust(api, SENDERS.webchatOwner, 'main set 70'), 'main: set score 70: trusted (60) → trusted (70)');
  assert.equal(trust(api, SENDERS.webchatOwner, 'forge set 50'), 'forge: set score 50: privileged (85) → standard (50)');
  assert.match(trust(api, SENDERS.channelOwner, 'main lock restricted'), /^main: lock tier restricted: trusted \(70\) → restricted/);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const by = auditRecords(api.stateDir).filter((r) => r.verdict === 'governance.trust.change' && r.details.by !== 'engine').map((r) => r.details.by);
  assert.deepEqual(by, ['webchat:owner', 'webchat:owner', 'telegram:123456789']);
});

test('senders the host does not call owners cannot change trust, however their id is spelled', () => {
  const api = setup();
  const refused = /^Only an owner can change trust/;
  assert.match(trust(api, SENDERS.webchatReader, 'main set 70'), refused);
  assert.match(trust(api, SENDERS.agentWithRead, 'intern set 100'), refused);
  assert.match(trust(api, SENDERS.agentWithRead, 'forge set 0'), refused);
  for (const senderId of ['Agent:intern:main', 'agent:intern:main', 'AGENT:main:main', 'intern', 'owner']) {
    assert.match(trust(api, { ...SENDERS.agentWithRead, senderId }, 'intern set 100'), refused, senderId);
  }
  // an owner's flag on a gateway client without operator.admin is not enough either
  assert.match(trust(api, { ...SENDERS.agentWithRead, senderIsOwner: true }, 'intern set 100'), refused);
  // the host stops these before the handler runs
  assert.equal(trust(api, SENDERS.agentViaGateway, 'intern set 100'), '⚠️ This command requires gateway scope: operator.read.');
  assert.equal(trust(api, SENDERS.channelUser, 'main set 70'), '⚠️ This command requires gateway scope: operator.read.');
  assert.equal(trust(api, SENDERS.interSession, 'main set 70'), '⚠️ This command requires authorization.');
  assert.equal(api.commands.get('trust').handler({ args: 'intern set 100', isAuthorizedSender: true }).text.match(refused)?.[0],
    'Only an owner can change trust', 'a host that does not say who is an owner gets a refusal, not a change');
  assert.match(trust(api, SENDERS.webchatOwner, 'intern'), /^intern: untrusted \(15\)$/, 'nothing changed');
});

test('reading trust needs no owner; /governance trust serves the senders /trust is closed to', () => {
  const api = setup();
  assert.match(trust(api, SENDERS.webchatReader, ''), /^forge: privileged \(85\)\nintern: untrusted \(15\)\nmain: trusted \(60\)$/m);
  assert.equal(trust(api, SENDERS.webchatReader, 'forge'), 'forge: privileged (85)');
  const table = governance(api, SENDERS.channelUser, 'trust');
  assert.equal(table, trust(api, SENDERS.webchatOwner, ''));
  assert.equal(governance(api, SENDERS.channelUser, 'trust main'), 'main: trusted (60)');
  assert.match(governance(api, SENDERS.channelUser, 'trust main set 90'), /^\/governance trust only reads/);
});

test('/governance help, stats and unknown subcommands', () => {
  const api = setup();
  const help = governance(api, SENDERS.channelUser, 'help');
  for (const sub of ['status', 'policies', 'audit', 'explain', 'trust', 'stats', 'help']) assert.match(help, new RegExp(`^/governance ${sub}\\b`, 'm'), sub);
  assert.match(help, /^\/trust <agent> set <score>/m);
  assert.doesNotMatch(help, /^Governance \d/m, 'help is not the status');
  fire(api, 'before_tool_call', { toolName: 'read', params: { path: '.env' } }, { agentId: 'main', sessionKey: 'agent:main:main' });
  fire(api, 'before_tool_call', { toolName: 'read', params: { path: 'README.md' } }, { agentId: 'main', sessionKey: 'agent:main:main' });
  const stats = governance(api, SENDERS.channelUser, 'stats');
  assert.match(stats, /^Evaluations: 2 \(allowed 2, denied 0, escalated 0, error fallbacks 0\)$/m);
  assert.match(stats, /^Audit: \d+ written by this process \(\d+ in the trail\), 0 failed/m);
  assert.match(stats, /^Trust: \d+ agents tracked/m);
  assert.doesNotMatch(stats, /^Policies:/m, 'stats is not the status');
  const unknown = governance(api, SENDERS.channelUser, 'bogus');
  assert.match(unknown, /^Unknown subcommand "bogus"\. Subcommands: status, policies, audit, explain, trust, stats, help$/);
  assert.match(governance(api, SENDERS.channelUser, ''), /^Governance \d/, 'no subcommand: the status');
  assert.match(governance(api, SENDERS.channelUser, 'status'), /^Governance \d/);
  // The trail holds every process's records, not only this one's (a CLI run beside the gateway).
  assert.match(governance(api, SENDERS.channelUser, 'status'), /^Audit: \d+ records in the trail \(every process's\), \d+ from this process/m);
});

test('trust operations through an owner: lock, floor, unlock, reset, and what the trail keeps', () => {
  const api = mockApi({ config: { trust: { defaults: { main: 60 } } } });
  plugin.register(api);
  const owner = SENDERS.channelOwner;
  assert.match(trust(api, owner, 'main lock restricted'), /→ restricted/);
  assert.match(trust(api, owner, 'main'), /^main: restricted \(\d+\), locked restricted/);
  assert.match(trust(api, owner, 'main floor 30'), /floor 30/);
  assert.match(trust(api, owner, 'main unlock'), /→ trusted \(60\)/);
  assert.match(trust(api, owner, 'main lock demigod'), /unknown tier "demigod"/);
  assert.match(trust(api, owner, 'main reset'), /reset history/);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const changes = auditRecords(api.stateDir).filter((r) => r.verdict === 'governance.trust.change' && r.details.by !== 'engine');
  assert.deepEqual(changes.map((r) => r.details.change), ['lock tier restricted', 'floor 30', 'unlock', 'reset history']);
  assert.ok(changes.every((r) => r.details.by === 'telegram:123456789' && r.controls.includes('A.5.15')));
  const stored = JSON.parse(fs.readFileSync(path.join(api.stateDir, 'plugins', 'openclaw-governance', 'governance', 'trust.json'), 'utf8'));
  assert.equal(stored.agents.main.floor, 30, 'reset keeps the operator floor');
});
