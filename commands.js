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
    `Evaluations in this process: ${status.evaluations} (allowed ${status.allowed}, denied ${status.denied}, escalated ${status.escalated}, fallbacks ${status.errorFallbacks})`,
    `Trust: ${status.trust.trackedAgents} agents${status.trust.loadError ? ` (LOAD ERROR: ${status.trust.loadError})` : ''}${status.trust.persisted === false ? ' (kept in memory: another process persists trust.json)' : ''}; sub-agent links: ${status.subAgents}`,
    `Audit: ${status.audit.enabled ? `${status.audit.trailRecords} records in the trail (every process's), ${status.audit.written} from this process, in ${status.audit.dir}` : `off${status.audit.lastError ? '' : ' (audit.enabled: false)'}`}${status.audit.lastError ? ` (last error: ${status.audit.lastError})` : ''}`,
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

/** The trust table, or one agent's line. */
function trustText(engine, id) {
  if (!id) return engine.getTrust().agents.map(view).join('\n') || 'No agents known yet';
  const t = engine.getTrust(id);
  return t ? view(t) : `No trust data for ${id}`;
}

/**
 * Who may change trust (NORMATIVE N9), decided on what the host says about the sender, never on
 * how a sender id is spelled (ids are channel-scoped and chosen outside our control):
 * - the host authorized the sender (`isAuthorizedSender`; `requireAuth` already enforces it);
 * - the host calls the sender an owner (`senderIsOwner === true`): a configured owner on a channel,
 *   or a gateway client holding operator.admin. The host only tells a plugin command this when the
 *   command declares `requiredScopes`, which is why /trust does; absent means no;
 * - a gateway client must hold operator.admin, like the `governance.trust.set` method.
 * An agent never satisfies this: text it sends to another session (sessions_send) arrives as an
 * inter-session run that is not parsed for commands, agent-to-agent channel turns are marked
 * command-suppressed (not authorized), and its own gateway calls carry least-privilege scopes and
 * no owner status. `ctx.agentId` is the agent owning the session the command was typed into, not
 * the sender: the owner changing `main` from main's own webchat is the ordinary case.
 */
function mayChangeTrust(ctx) {
  if (ctx.isAuthorizedSender !== true || ctx.senderIsOwner !== true) return false;
  return !Array.isArray(ctx.gatewayClientScopes) || ctx.gatewayClientScopes.includes('operator.admin');
}

/** `/trust`, `/trust <agent>`, `/trust <agent> set|lock|unlock|floor|reset …` (NORMATIVE N9). */
function trustCommand(engine, ctx) {
  const [id, op, value] = String(ctx.args || '').trim().split(/\s+/).filter(Boolean);
  if (!op) return trustText(engine, id);
  if (!mayChangeTrust(ctx)) {
    return 'Only an owner can change trust: the host did not identify this sender as an owner ' +
      '(commands.ownerAllowFrom on a channel, or a gateway client with operator.admin).';
  }
  const by = `${ctx.channel || 'chat'}:${ctx.senderId || 'owner'}`;
  const change = engine.setTrust(id, op, value, by);
  return `${id}: ${change.change}: ${change.from.tier} (${Math.round(change.from.score)}) → ${change.to.tier} (${Math.round(change.to.score)})`;
}

function statsText(status) {
  const a = status.audit;
  const minutes = Math.floor(status.uptimeMs / 60000);
  return [
    `Since start (${minutes >= 60 ? `${Math.floor(minutes / 60)} h ` : ''}${minutes % 60} min):`,
    `Evaluations: ${status.evaluations} (allowed ${status.allowed}, denied ${status.denied}, escalated ${status.escalated}, error fallbacks ${status.errorFallbacks})`,
    `Audit: ${a.enabled ? `${a.written} written by this process (${a.trailRecords} in the trail), ${a.failed} failed, ${a.breaks ?? 0} chain breaks, ${a.checkpoints ?? 0} checkpoints` : 'off'}`,
    `Over performance.maxEvalUs: ${status.overBudget ?? 0}`,
    `Trust: ${status.trust.trackedAgents} agents tracked; sub-agent links: ${status.subAgents}`,
  ].join('\n');
}

const HELP = [
  '/governance status  config, policies, counters, audit trail (also /governance alone)',
  '/governance policies  the loaded policies',
  '/governance audit [agent] [N]  the newest N audit records (default 10)',
  '/governance explain <agent|sessionKey> [tool [command…]]  which policies bind it and why a tool is allowed or not',
  '/governance trust [agent]  trust scores and tiers',
  '/governance stats  evaluation and audit counters',
  '/governance help  this list',
  '/trust [agent]  trust scores (owners and gateway operators)',
  '/trust <agent> set <score> | lock <tier> | unlock | floor <score> | reset  (owners only)',
].join('\n');

const SUBCOMMANDS = {
  status: (engine) => statusText(engine.getStatus()),
  policies: (engine) => engine.getStatus().policies
    .map((p) => `${p.id} (${p.rules} rules, priority ${p.priority}, hooks ${p.hooks.join(',')})`).join('\n') || 'No policies',
  audit: auditText,
  explain: explainText,
  trust: (engine, [id, ...rest]) => (rest.length ? '/governance trust only reads; change trust with /trust <agent> …' : trustText(engine, id)),
  stats: (engine) => statsText(engine.getStatus()),
  help: () => HELP,
};

function governanceCommand(engine, ctx) {
  const [sub = 'status', ...rest] = String(ctx.args || '').trim().split(/\s+/).filter(Boolean);
  if (!Object.hasOwn(SUBCOMMANDS, sub)) return `Unknown subcommand "${sub}". Subcommands: ${Object.keys(SUBCOMMANDS).join(', ')}`;
  try {
    return SUBCOMMANDS[sub](engine, rest);
  } catch (err) {
    return `governance ${sub}: ${err.message}`;
  }
}

function registerCommands(api, engine) {
  api.registerCommand?.({
    name: 'governance',
    description: 'Governance: /governance [status|policies|audit|explain|trust|stats|help]',
    acceptsArgs: true,
    requireAuth: true,
    handler: (ctx = {}) => ({ text: governanceCommand(engine(), ctx) }),
  });
  api.registerCommand?.({
    name: 'trust',
    description: 'Trust: /trust [agent]; owners: /trust <agent> set <score> | lock <tier> | unlock | floor <score> | reset',
    acceptsArgs: true,
    requireAuth: true,
    // Declaring a scope is what makes the host pass senderIsOwner to this handler; it also closes
    // /trust to channel senders who are not owners (they read trust with /governance trust).
    requiredScopes: ['operator.read'],
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
  // Provenance (seed 004): the session's taint and turn graphs (hashes and redacted previews).
  method('governance.provenance', (p) => {
    if (!p.sessionKey) throw new Error('params: {sessionKey}');
    const graphs = engine().provenanceGraph(String(p.sessionKey));
    if (graphs === null) throw new Error('provenance is off (no provenance section in the plugin config)');
    return graphs;
  });
}

module.exports = { registerCommands, registerGatewayMethods };
