// Shared test helpers: a mock of the OpenClaw plugin API shaped like the real host's (HOST.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Every directory a test file makes goes when its process exits: a run of the suite made ~50.
const made = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'ocg-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** `conversationAccess`: the operator granted plugins.entries.<id>.hooks.allowConversationAccess. */
export function mockApi({ config = {}, mode = 'full', stateDir = tempDir(), conversationAccess = false } = {}) {
  const api = {
    id: 'openclaw-governance',
    registrationMode: mode,
    pluginConfig: config,
    config: conversationAccess ? { plugins: { entries: { 'openclaw-governance': { hooks: { allowConversationAccess: true } } } } } : {},
    logs: [],
    hooks: new Map(),
    commands: new Map(),
    methods: new Map(),
    services: [],
    stateDir,
    runtime: { state: { resolveStateDir: () => stateDir } },
    on(name, handler, opts = {}) {
      if (!api.hooks.has(name)) api.hooks.set(name, []);
      api.hooks.get(name).push({ handler, priority: opts.priority ?? 0 });
    },
    registerCommand(cmd) { api.commands.set(cmd.name, cmd); },
    registerGatewayMethod(name, handler, opts = {}) { api.methods.set(name, { handler, scope: opts.scope }); },
    registerService(svc) { api.services.push(svc); },
  };
  api.logger = Object.fromEntries(['debug', 'info', 'warn', 'error'].map((level) => [level, (msg) => api.logs.push({ level, msg })]));
  return api;
}

/** Runs the last-registered handler of a hook, as the host dispatches to the last registration. */
export function fire(api, hook, event, ctx) {
  const list = api.hooks.get(hook);
  if (!list) throw new Error(`hook ${hook} not registered`);
  return list[list.length - 1].handler(event, ctx);
}

export function callMethod(api, name, params = {}) {
  let answer;
  api.methods.get(name).handler({ params, respond: (ok, payload, error) => { answer = { ok, payload, error }; } });
  return answer;
}

export function auditRecords(stateDir) {
  const dir = path.join(stateDir, 'plugins', 'openclaw-governance', 'governance', 'audit');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
}
