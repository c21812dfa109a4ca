// The host's own model as an LLM backend: `setHostLlm(fn)` keeps a JS function that the Rust
// side calls from napi's tokio runtime, and `probeHostLlm` runs one completion through it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');
const entry = fileURLToPath(new URL('../index.js', import.meta.url));

const engine = () => new GovernanceEngine({ audit: { enabled: false } });
const probe = (e, request = {}) => e.probeHostLlm(JSON.stringify(request));

test('the host function gets one JSON string and its resolved text is the answer', async () => {
  const e = engine();
  const seen = [];
  e.setHostLlm(async (...args) => {
    seen.push(args);
    return 'OK from the host';
  });
  const text = await probe(e, { system: 'be brief', user: 'ping', maxTokens: 7 });
  assert.equal(text, 'OK from the host');
  assert.equal(seen.length, 1);
  assert.equal(seen[0].length, 1, 'exactly one argument, no error-first slot');
  assert.equal(typeof seen[0][0], 'string');
  assert.deepEqual(JSON.parse(seen[0][0]), { system: 'be brief', user: 'ping', maxTokens: 7, model: null, purpose: 'probe' });
});

test('a model override and defaults reach the host function', async () => {
  const e = engine();
  let request;
  e.setHostLlm(async (r) => { request = JSON.parse(r); return 'x'; });
  await probe(e, { model: 'small-model' });
  assert.equal(request.model, 'small-model');
  assert.equal(typeof request.system, 'string');
  assert.ok(request.user.length > 0);
  assert.ok(request.maxTokens > 0);
});

test('a function that throws rejects the probe with its message', async () => {
  const e = engine();
  e.setHostLlm(() => { throw new Error('host model unavailable'); });
  await assert.rejects(probe(e), /host model unavailable/);
  e.setHostLlm(() => { throw 'a bare string'; }); // eslint-disable-line no-throw-literal
  await assert.rejects(probe(e), /a bare string/);
});

test('a rejected promise rejects the probe with its message', async () => {
  const e = engine();
  e.setHostLlm(async () => { throw new Error('quota exceeded'); });
  await assert.rejects(probe(e), /quota exceeded/);
  e.setHostLlm(() => Promise.reject(undefined));
  await assert.rejects(probe(e), /host model/);
});

test('an answer that is neither a text nor {text, model} is an error, not text', async () => {
  const e = engine();
  e.setHostLlm(() => 42);
  await assert.rejects(probe(e), /returned number, not a text, \{text, model\} or a Promise/i);
  e.setHostLlm(async () => ({ text: 42, model: 'm' }));
  await assert.rejects(probe(e), /returned number, not a text/i);
  // A thenable is not a Promise: its `then` is never called, and it carries no text.
  let called = false;
  e.setHostLlm(() => ({ then: (ok) => { called = true; ok('a thenable, not a Promise'); } }));
  await assert.rejects(probe(e), /returned undefined, not a text/i);
  assert.equal(called, false);
});

test("the host's own result {text, model} is taken as the text (the model goes to the records)", async () => {
  const e = engine();
  e.setHostLlm(async () => ({ text: 'wrapped', model: 'host-model', provider: 'p', usage: {} }));
  assert.equal(await probe(e), 'wrapped');
  e.setHostLlm(() => ({ text: 'sync wrapped', model: 7 }));
  assert.equal(await probe(e), 'sync wrapped', 'a model name that is not a string is left out');
});

test('a function answering synchronously with a string is taken as the text', async () => {
  const e = engine();
  e.setHostLlm(() => 'sync text');
  assert.equal(await probe(e), 'sync text');
});

test('without a host function the probe says so', async () => {
  await assert.rejects(probe(engine()), /setHostLlm/);
});

test('an unreadable probe request is refused before the host is asked', async () => {
  const e = engine();
  let calls = 0;
  e.setHostLlm(async () => { calls += 1; return 'x'; });
  await assert.rejects(e.probeHostLlm('{not json'), /probe request/);
  await assert.rejects(probe(e, { maxTokens: -1 }), /probe request/);
  await assert.rejects(probe(e, { purpose: 'intent' }), /purpose/);
  assert.equal(calls, 0);
});

test('setHostLlm takes only a function', () => {
  assert.throws(() => engine().setHostLlm('not a function'));
});

test('setHostLlm replaces the function before it', async () => {
  const e = engine();
  e.setHostLlm(async () => 'first');
  e.setHostLlm(async () => 'second');
  assert.equal(await probe(e), 'second');
});

test('five probes run at once, each getting its own answer', async () => {
  const e = engine();
  const waiting = [];
  e.setHostLlm((r) => new Promise((resolve) => waiting.push(() => resolve(`answer to ${JSON.parse(r).user}`))));
  const probes = [0, 1, 2, 3, 4].map((i) => probe(e, { user: `q${i}` }));
  // Every call reaches the host before any is answered: none waits behind another.
  while (waiting.length < 5) await new Promise((r) => setTimeout(r, 5));
  for (const answer of waiting.reverse()) answer();
  assert.deepEqual(await Promise.all(probes), ['answer to q0', 'answer to q1', 'answer to q2', 'answer to q3', 'answer to q4']);
});

test('a probe the host never answers times out', async () => {
  const e = engine();
  e.setHostLlm(() => new Promise(() => {}));
  await assert.rejects(probe(e, { timeoutMs: 50 }), /no answer within 50 ms/);
});

test('a pending model call does not lock the engine against reconfigure or close', async () => {
  const e = engine();
  let answer;
  e.setHostLlm(() => new Promise((resolve) => { answer = resolve; }));
  const pending = probe(e);
  while (!answer) await new Promise((r) => setTimeout(r, 5));
  e.reconfigure({ audit: { enabled: false } });
  e.setHostLlm(async () => 'replacement');
  answer('late answer');
  assert.equal(await pending, 'late answer', 'the call in flight keeps the function it started with');
  e.close();
});

// A node process that runs `script` with `GovernanceEngine` in scope; it must end by itself.
function runChild(script) {
  const source = `const { GovernanceEngine } = require(${JSON.stringify(entry)});\n${script}`;
  return spawnSync(process.execPath, ['-e', source], { encoding: 'utf8', timeout: 15_000 });
}

test('holding a host function does not keep the process alive', () => {
  const child = runChild(`
    const e = new GovernanceEngine({ audit: { enabled: false } });
    e.setHostLlm(() => new Promise(() => {}));
    console.log('set');`);
  assert.equal(child.signal, null, `the child had to be killed: ${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), 'set');
});

test('a host that never answers: the probe times out and the process then exits', () => {
  const child = runChild(`
    const e = new GovernanceEngine({ audit: { enabled: false } });
    e.setHostLlm(() => new Promise(() => {}));
    e.probeHostLlm(JSON.stringify({ timeoutMs: 200 })).then(
      (t) => console.log('answered', t),
      (err) => console.log('rejected:', err.message));`);
  assert.equal(child.signal, null, `the child had to be killed: ${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  assert.match(child.stdout, /rejected: .*no answer within 200 ms/);
});
