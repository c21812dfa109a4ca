// The benchmark scenario: the builtins with every guard (night window not active) plus ten
// custom deny policies with `matches` patterns on `command`, and an ordinary exec by a standard agent.

export const PATTERNS = [
  'rm\\s+-[a-zA-Z]*(rf|fr)\\b',
  '\\bmkfs(\\.[a-z0-9]+)?\\b',
  '\\bdd\\s+if=',
  'curl[^|]*\\|\\s*(ba)?sh',
  'chmod\\s+(-R\\s+)?777',
  '\\b(shutdown|reboot|halt)\\b',
  'iptables\\s+-F',
  '\\bnc\\s+-[a-z]*l',
  '>\\s*/dev/sd[a-z]',
  'git\\s+reset\\s+--hard\\s+origin',
];

/** A night window that is certainly not active now (it starts two hours from now, UTC). */
function inactiveNight(now = new Date()) {
  const at = (h) => `${String((now.getUTCHours() + h) % 24).padStart(2, '0')}:00`;
  return { after: at(2), before: at(3) };
}

export function benchConfig() {
  return {
    timezone: 'UTC',
    trust: { defaults: { forge: 50, main: 60 } },
    // Every guard on (selfProtection is on by default): each call's command is parsed as a shell
    // would and its paths resolved.
    builtinPolicies: { nightMode: inactiveNight(), credentialGuard: true, productionSafeguard: true,
      destructiveGuard: true, remoteCodeGuard: true, rateLimiter: { maxPerMinute: 100000 } },
    policies: PATTERNS.map((p, i) => ({
      id: `custom-${i}`,
      name: `Custom ${i}`,
      version: '1.0.0',
      rules: [{ id: `deny-${i}`, conditions: [{ type: 'tool', name: 'exec', params: { command: { matches: p } } }],
        effect: { action: 'deny', reason: `custom rule ${i}` } }],
    })),
  };
}

// An ordinary 60-character command: a pipeline, a list, a redirect, a flag cluster.
export const ORDINARY = { toolName: 'exec', params: { command: 'git status --short && ls -la src | head -n 20 > /tmp/ls.txt' } };
export const CTX = { agentId: 'forge', sessionKey: 'agent:forge:main', toolName: 'exec' };
