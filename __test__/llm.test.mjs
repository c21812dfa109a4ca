// Intent conditions through register(api), as the host runs them: the host's own model
// (api.runtime.llm.complete, faked here) answers; only a call that needs it returns a Promise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const plugin = require('../plugin.js');

const config = (llm = {}) => ({
  builtinPolicies: {},
  llm: { enabled: true, escalationThreshold: 100, timeoutMs: 2000, ...llm },
  policies: [{
    id: 'intent', name: 'intent',
    rules: [{ id: 'no-deleting', conditions: [{ type: 'intent', description: "deletes the user's files" }, { type: 'tool', name: 'exec' }],
      effect: { action: 'deny', reason: 'deletes files' } }],
  }],
});

// Removed when the file's tests are done: each registration's state would stay in /tmp.
const stateDirs = [];
process.on('exit', () => stateDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function register(cfg, complete) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocg-llm-'));
  stateDirs.push(dir);
  const api = {
    registrationMode: 'full', pluginConfig: { ...cfg, workspace: dir }, hooks: {}, logs: [],
    logger: { info() {}, debug() {}, warn: (m) => api.logs.push(m), error: (m) => api.logs.push(m) },
    runtime: { state: { resolveStateDir: () => dir }, llm: complete ? { complete } : undefined },
    on(name, fn) { api.hooks[name] = fn; }, registerCommand() {}, registerGatewayMethod() {}, registerService() {},
  };
  plugin.register(api);
  return { api, dir };
}

const exec = (api, command, n) => api.hooks.before_tool_call(
  { toolName: 'exec', params: { command }, toolCallId: `c${n}`, runId: 'r1' },
  { agentId: 'forge', sessionKey: 'agent:forge:main', toolName: 'exec', toolCallId: `c${n}`, runId: 'r1' });

/** A model that says a command deletes files when it holds `rm -rf`. */
function model(asked) {
  return async (params) => {
    asked.push(params);
    const matches = params.messages[0].content.includes('rm -rf');
    return { text: JSON.stringify({ matches, confidence: 0.9, reasoning: 'read the command' }), model: 'fake' };
  };
}

/** Every record of the audit trail under `dir`, parsed. */
function auditRecords(dir) {
  const files = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else files.push(p); } };
  walk(dir);
  return files.filter((f) => f.endsWith('.jsonl')).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
}

test('an intent rule asks the host model, blocks what it says matches and lets the rest run', async () => {
  const asked = [];
  const { api, dir } = register(config(), model(asked));
  const pending = exec(api, 'rm -rf ~/projects', 1);
  assert.ok(pending instanceof Promise, 'a call that waits for the model returns a Promise');
  const blocked = await pending;
  assert.equal(blocked.block, true);
  assert.match(blocked.blockReason, /deletes files \[openclaw-governance: intent\/no-deleting\]/);
  assert.equal(await exec(api, 'ls -la', 2), undefined);
  assert.equal(asked.length, 2);
  const p = asked[0];
  assert.equal(p.temperature, 0);
  assert.equal(p.purpose, 'governance.intent');
  assert.match(p.systemPrompt, /exactly one JSON object/);
  assert.equal(p.messages.length, 1);
  assert.ok(p.signal instanceof AbortSignal, 'the host request is aborted with the engine\'s timeout');
  // The same call again: answered from the cache, synchronously.
  const again = exec(api, 'rm -rf ~/projects', 3);
  assert.ok(!(again instanceof Promise), 'a cached answer needs no Promise');
  assert.equal(again.block, true);
  assert.equal(asked.length, 2);
  // Only the host knows which model it asked: its answer names it, and so do the records.
  api.hooks.gateway_stop?.({}, {});
  const calls = auditRecords(dir).filter((r) => JSON.stringify(r).includes('"governance.llm.call"'));
  assert.equal(calls.length, 2, 'one record per model call');
  for (const c of calls) assert.match(JSON.stringify(c), /"backend":"host"/);
  for (const c of calls) assert.match(JSON.stringify(c), /"model":"fake"/);
});

test('a call no intent rule concerns never touches the model and stays synchronous', () => {
  const asked = [];
  const { api } = register(config(), model(asked));
  const r = api.hooks.before_tool_call({ toolName: 'read', params: { path: 'README.md' } }, { agentId: 'forge', sessionKey: 'agent:forge:main' });
  assert.equal(r, undefined);
  assert.equal(asked.length, 0);
});

test('a host model that fails falls back to the regex verdict, or blocks under failMode closed', async () => {
  const failing = async () => { throw new Error('model overloaded'); };
  const open = register(config(), failing).api;
  assert.equal(await exec(open, 'rm -rf ~/projects', 1), undefined);
  const closed = register(config({ failMode: 'closed' }), failing).api;
  const r = await exec(closed, 'ls', 2);
  assert.equal(r.block, true);
  assert.match(r.blockReason, /no usable answer .*model overloaded.*llm\.failMode is closed/);
});

test('an OpenAI-compatible backend keeps its apiKey out of every file under the state dir', async () => {
  const key = 'sk-test-0123456789abcdefghij';
  // Nothing listens on port 9: every call fails, and is audited.
  const { api, dir } = register(config({ endpoint: 'http://127.0.0.1:9/v1', apiKey: key, model: 'judge' }));
  assert.equal(await exec(api, 'rm -rf ~/projects', 1), undefined);
  api.hooks.gateway_stop?.({}, {});
  const files = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else files.push(p); } };
  walk(dir);
  const trail = files.filter((f) => f.endsWith('.jsonl')).map((f) => fs.readFileSync(f, 'utf8')).join('');
  assert.match(trail, /"governance\.llm\.call"/, 'the failed call is audited');
  assert.match(trail, /"backend":"openai"/);
  for (const f of files) assert.ok(!fs.readFileSync(f, 'utf8').includes(key), f);
  assert.ok(!api.logs.some((l) => l.includes(key)));
});

test('an OpenAI-compatible endpoint on 127.0.0.1 judges intents: match, no match, malformed, slow, bounded', async () => {
  const { default: http } = await import('node:http');
  const seen = [];
  let inFlight = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', async () => {
      const r = JSON.parse(body);
      seen.push({ auth: req.headers.authorization, body: r });
      inFlight += 1; most = Math.max(most, inFlight);
      const user = r.messages.find((m) => m.role === 'user').content;
      await new Promise((ok) => setTimeout(ok, user.includes('slow') ? 3000 : 50));
      inFlight -= 1;
      const content = user.includes('garbled') ? 'I think it is fine.'
        : JSON.stringify({ matches: user.includes('rm -rf'), confidence: 0.9, reasoning: 'read it' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const endpoint = `http://127.0.0.1:${server.address().port}/v1`;
    const { api } = register(config({ endpoint, apiKey: 'sk-local-0123456789', model: 'judge-small', timeoutMs: 1000, maxConcurrent: 2, failMode: 'closed' }));
    assert.equal((await exec(api, 'rm -rf ~/projects', 1)).block, true, 'match');
    assert.equal(await exec(api, 'ls -la', 2), undefined, 'no match');
    assert.match((await exec(api, 'echo garbled', 3)).blockReason, /no usable answer .*answer rejected/, 'malformed, closed');
    assert.match((await exec(api, 'echo slow', 4)).blockReason, /no answer within 1000 ms/, 'timeout, closed');
    assert.equal(seen[0].auth, 'Bearer sk-local-0123456789');
    assert.equal(seen[0].body.model, 'judge-small');
    assert.equal(seen[0].body.temperature, 0);
    // Five questions at once: the endpoint never sees more than maxConcurrent (2). The slow
    // request the client gave up on is still being served: wait for it first.
    while (inFlight > 0) await new Promise((ok) => setTimeout(ok, 50));
    most = 0;
    const five = await Promise.all([10, 11, 12, 13, 14].map((n) => exec(api, `ls dir${n}`, n)));
    assert.deepEqual(five, [undefined, undefined, undefined, undefined, undefined]);
    assert.equal(most, 2);
  } finally {
    server.close();
  }
});
