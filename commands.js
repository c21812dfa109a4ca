'use strict';
// Chat commands and gateway methods of the OpenClaw shim: text in, one engine call, text out.

function statusText(status) {
  if (!status.configValid) {
    return `Governance: config INVALID (failMode ${status.failMode})\n` +
      status.configErrors.map((e) => `- ${e.path}: ${e.message}`).join('\n');
  }
  const builtins = status.policies.filter((p) => p.builtin).map((p) => p.id.replace('builtin-', ''));
  return [
    `Governance ${status.version}: ${status.enabled ? 'enabled' : 'DISABLED'}, failMode ${status.failMode}, unknown tools: ${status.unknownToolAction}, timezone ${status.timezone}`,
    `Policies: ${status.policies.length} (builtins: ${builtins.join(', ') || 'none'})`,
    `Evaluations: ${status.evaluations} (allowed ${status.allowed}, denied ${status.denied}, escalated ${status.escalated}, fallbacks ${status.errorFallbacks})`,
    `Trust: ${status.trust.trackedAgents} agents${status.trust.loadError ? ` (LOAD ERROR: ${status.trust.loadError})` : ''}; sub-agent links: ${status.subAgents}`,
    `Audit: ${status.audit.enabled ? `${status.audit.written} records in ${status.audit.dir}` : 'off'}${status.audit.lastError ? ` (last error: ${status.audit.lastError})` : ''}`,
  ].join('\n');
}

/** `/governance audit [agent] [N]`: the newest N (default 10) records, optionally of one agent. */
function auditText(engine, args) {
  const n = args.find((a) => /^\d+$/.test(a));
  const agent = args.find((a) => !/^\d+$/.test(a));
  const records = engine.auditQuery({ agent, limit: Math.min(Number(n || 10), 100) });
  if (!records.length) return 'No audit records';
  return records.map((r) => `#${r.seq} ${r.timestampIso} ${r.verdict} ${r.context.agentId} ${r.context.toolName || r.context.hook}` +
    `${r.ruleId ? ` ${r.ruleId}` : ''}${r.blockReason ? `: ${r.blockReason}` : ''}`).join('\n');
}

/** `/governance explain <agent|sessionKey> [tool [command…]]`. */
function explainText(engine, args) {
  const [who, tool, ...rest] = args;
  if (!who) return 'Usage: /governance explain <agent|sessionKey> [tool [command…]]';
  const params = rest.length ? { command: rest.join(' ') } : {};
  const x = engine.explain(who, tool, params);
  const t = x.trust || {};
  const lines = [
    `${x.agentId} (${x.sessionKey})${x.ancestors.length ? `, spawned by ${x.ancestors.join(' ← ')}` : ', a root agent'}`,
    `Trust: ${t.effective ? `${t.effective.tier} (${Math.round(t.effective.score)})` : '?'}` +
      `${t.ceiling ? `, capped at ${Math.round(t.ceiling.score)} by ${t.ceiling.from}` : ''}`,
    'Policies:',
    ...x.policies.map((p) => `- ${p.policyId}: ${p.source}`),
  ];
  if (x.decision) {
    const d = x.decision;
    lines.push(`${tool}: ${d.action.toUpperCase()}${d.policyId ? ` by ${d.policyId}/${d.ruleId} (${d.source})` : ''}: ${d.reason}`);
  }
  return lines.join('\n');
}

const view = (t) => `${t.agentId}: ${t.tier} (${Math.round(t.score)})${t.locked ? `, locked ${t.locked}` : ''}` +
  `${t.floor !== undefined && t.floor !== null ? `, floor ${t.floor}` : ''}${t.ceiling ? `, capped at ${Math.round(t.ceiling.score)} by ${t.ceiling.from}` : ''}`;

/** `/trust`, `/trust <agent>`, `/trust <agent> set|lock|unlock|floor|reset …` (NORMATIVE N9). */
function trustCommand(engine, ctx) {
  const [id, op, value] = String(ctx.args || '').trim().split(/\s+/).filter(Boolean);
  if (!id) return engine.getTrust().agents.map(view).join('\n') || 'No agents known yet';
  if (!op) {
    const t = engine.getTrust(id);
    return t ? view(t) : `No trust data for ${id}`;
  }
  // Only a human the host has authorized may change trust, and never an agent, least of all its own.
  const sender = String(ctx.senderId || '');
  if (!(ctx.isAuthorizedSender || ctx.senderIsOwner)) return 'Only an authorized sender may change trust.';
  if (sender.startsWith('agent:') || sender === id || (ctx.agentId === id && !ctx.senderIsOwner)) {
    return 'Agents cannot change trust, including their own.';
  }
  const change = engine.setTrust(id, op, value, sender || 'operator');
  return `${id}: ${change.change}: ${change.from.tier} (${Math.round(change.from.score)}) → ${change.to.tier} (${Math.round(change.to.score)})`;
}

function registerCommands(api, engine) {
  api.registerCommand?.({
    name: 'governance',
    description: 'Governance status; "/governance policies", "/governance audit [agent] [N]", "/governance explain <agent|session> [tool]"',
    acceptsArgs: true,
    requireAuth: true,
    handler: (ctx = {}) => {
      const status = engine().getStatus();
      const [sub, ...rest] = String(ctx.args || '').trim().split(/\s+/);
      try {
        if (sub === 'audit') return { text: auditText(engine(), rest) };
        if (sub === 'explain') return { text: explainText(engine(), rest) };
      } catch (err) {
        return { text: `governance ${sub}: ${err.message}` };
      }
      if (sub === 'policies') {
        return { text: status.policies.map((p) => `${p.id} (${p.rules} rules, priority ${p.priority}, hooks ${p.hooks.join(',')})`).join('\n') || 'No policies' };
      }
      return { text: statusText(status) };
    },
  });
  api.registerCommand?.({
    name: 'trust',
    description: 'Trust: /trust [agent]; operators: /trust <agent> set <score> | lock <tier> | unlock | floor <score> | reset',
    acceptsArgs: true,
    requireAuth: true,
    handler: (ctx = {}) => {
      try {
        return { text: trustCommand(engine(), ctx) };
      } catch (err) {
        return { text: `trust: ${err.message}` };
      }
    },
  });
}

function registerGatewayMethods(api, engine) {
  const method = (name, fn, scope = 'operator.read') => api.registerGatewayMethod?.(name, ({ params, respond, client }) => {
    try {
      respond(true, fn(params || {}, client));
    } catch (err) {
      respond(false, undefined, { code: 'GOVERNANCE_ERROR', message: String(err && err.message) });
    }
  }, { scope });
  method('governance.status', () => engine().getStatus());
  method('governance.trust', (p) => (p.agentId ? engine().getTrust(String(p.agentId), p.sessionKey) : engine().getTrust()));
  method('governance.trust.set', (p, client) => {
    if (!p.agentId || !p.op) throw new Error('params: {agentId, op: set|lock|unlock|floor|reset, value?}');
    const by = client?.id || client?.name || 'gateway operator';
    return engine().setTrust(String(p.agentId), String(p.op), p.value === undefined ? undefined : String(p.value), String(by));
  }, 'operator.admin');
  // Facts come only from operators (never from agent output or tool results, seed 000 §14.2).
  method('governance.facts.update', (p) => {
    if (!p.registryId || !p.fact) throw new Error('params: {registryId, fact}');
    return { factId: engine().updateFact(String(p.registryId), p.fact) };
  }, 'operator.admin');
  method('governance.explain', (p) => {
    const who = p.sessionKey || p.agentId || p.who;
    if (!who) throw new Error('params: {agentId | sessionKey, tool?, params?}');
    return engine().explain(String(who), p.tool, p.params);
  });
  // Audit read-back: params are the query filter (agent, session, from, to, verdict, policy, rule,
  // risk, hook, category, limit); verify checks the trail against the engine's signing key.
  method('governance.audit.query', (p) => engine().auditQuery({ limit: 100, ...p }));
  method('governance.audit.verify', () => engine().auditVerify());
}

module.exports = { registerCommands, registerGatewayMethods };
