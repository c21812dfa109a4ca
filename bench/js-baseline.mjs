// What a user would otherwise run: the same policies evaluated in plain JavaScript with RegExp,
// the way the TypeScript plugin does it (patterns compiled once, audit record serialized per call).

import { PATTERNS } from './policies.mjs';

const CREDENTIAL = [
  /(^|[\s/'"=:<>])(\.env(\.[\w.-]+)?|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials|id_(rsa|dsa|ecdsa|ed25519)|credentials(\.json|\.ya?ml|\.toml)?|secrets?(\.(json|ya?ml|toml|env|txt))?|[\w.-]+\.(pem|key|p12|pfx|jks|keystore))($|[\s'"/;|&)<>])/i,
  /\b(grep|egrep|rg|ag|ack|findstr|git\s+grep)\b[^\n]*\b(passwords?|passwd|secrets?|tokens?|api[_-]?keys?|private[_-]?keys?|credentials?)\b|\bprintenv\b/i,
];
const PRODUCTION = /\bdocker\s+push\b|\bsystemctl\s+(restart|stop)\b|\bgit\s+push\b[^\n;&|]*\b(main|master|prod|production)\b|\bkubectl\s+(apply|delete|rollout)\b|\b(npm|pnpm|yarn)\s+publish\b|\bterraform\s+(apply|destroy)\b|\bhelm\s+(install|upgrade|uninstall)\b/i;

export function makeJsEvaluator(config) {
  const custom = PATTERNS.map((p, i) => ({ id: `custom-${i}`, re: new RegExp(p), reason: `custom rule ${i}` }));
  const calls = new Map();
  const audit = [];
  const [after, before] = [config.builtinPolicies.nightMode.after, config.builtinPolicies.nightMode.before].map((t) => {
    const [h, m] = t.split(':').map(Number);
    return h * 60 + m;
  });
  return function evaluate(toolName, params, ctx) {
    const t0 = process.hrtime.bigint();
    const command = typeof params.command === 'string' ? params.command : '';
    const now = new Date();
    const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
    const night = after < before ? minute >= after && minute < before : minute >= after || minute < before;
    let verdict = { action: 'allow', reason: 'No policy matched' };
    const list = calls.get(ctx.agentId) || [];
    const recent = list.filter((t) => t > now.getTime() - 60000);
    if (night && !['read', 'memory_search', 'memory_get'].includes(toolName)) verdict = { action: 'deny', reason: 'night' };
    else if (CREDENTIAL.some((re) => re.test(command))) verdict = { action: 'deny', reason: 'credential' };
    else if (recent.length + 1 > config.builtinPolicies.rateLimiter.maxPerMinute) verdict = { action: 'deny', reason: 'rate' };
    else {
      for (const c of custom) if (toolName === 'exec' && c.re.test(command)) { verdict = { action: 'deny', reason: c.reason }; break; }
      if (verdict.action === 'allow' && PRODUCTION.test(command)) verdict = { action: 'escalate', reason: 'production' };
    }
    recent.push(now.getTime());
    calls.set(ctx.agentId, recent.slice(-1000));
    audit.push(JSON.stringify({ ts: now.toISOString(), tool: toolName, params, verdict, us: Number(process.hrtime.bigint() - t0) / 1000 }));
    if (audit.length > 1000) audit.length = 0;
    return verdict;
  };
}
