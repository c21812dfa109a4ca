// Output validation through the binding: synchronous verdicts, trust scaling, and audit records
// that keep only the matched segments of agent output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { tempDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');

const config = {
  trust: { defaults: { main: 60, forge: 45, '*': 10 } },
  outputValidation: {
    performance: { maxEvalUs: 10000000 }, // verdicts must not depend on machine load
    factRegistries: [{ id: 'system', name: 'System', facts: [
      { id: 'nginx-installed', category: 'system_state', subject: 'nginx', value: { type: 'state', state: 'installed' } },
    ] }, { filePath: '~/.openclaw/plugins/openclaw-governance/generated-facts.json' }],
  },
};

test('validateOutput is synchronous and scales with trust', () => {
  const e = new GovernanceEngine(config, { stateDir: tempDir() });
  const text = 'I checked the host. nginx is not installed, so I could not restart it.';
  const untrusted = e.validateOutput({ sessionKey: 'agent:helper:main', text, hook: 'before_message_write' });
  assert.equal(untrusted.verdict, 'block');
  assert.equal(untrusted.violations[0].contradictedFactId, 'nginx-installed');
  assert.equal(untrusted.trust.tier, 'untrusted');
  assert.equal(e.validateOutput({ agentId: 'forge', text }).verdict, 'flag', 'standard: contradictions are flagged');
  assert.equal(e.validateOutput({ agentId: 'main', text: 'nginx is installed and serving.' }).verdict, 'pass');
  assert.equal(e.validateOutput({ agentId: 'main', text: 'ok' }).skipped, 'shorter than minTextLength (10)');
  assert.equal(JSON.parse(e.validateOutputJson('{oops')).verdict, 'pass', 'fails open on unreadable input');
  assert.equal(e.auditQuery({ verdict: 'error_fallback' })[0].error.startsWith('output validation: unreadable'), true);
  const logs = e.takeLogs().map((l) => l.message).join('\n');
  assert.match(logs, /cannot read the registry file .*\.openclaw\/plugins\/openclaw-governance\/generated-facts.json/);
});

test('failMode closed: a registry file that cannot be read blocks claims, names the file', () => {
  const dir = tempDir();
  const e = new GovernanceEngine({
    failMode: 'closed',
    trust: { defaults: { main: 70 } },
    outputValidation: { performance: { maxEvalUs: 10000000 }, factRegistries: [{ filePath: `${dir}/missing-facts.json` }] },
  }, { stateDir: dir });
  const r = e.validateOutput({ agentId: 'main', text: 'nginx is not installed on this host.', hook: 'before_message_write' });
  assert.equal(r.verdict, 'block');
  assert.match(r.violations[0].reason, /cannot be checked, failMode is closed: .*missing-facts\.json/);
  assert.equal(e.validateOutput({ agentId: 'main', text: 'Here is the summary you asked for.' }).verdict, 'pass');
  assert.equal(e.evaluateSync({ hook: 'before_tool_call', agentId: 'main', toolName: 'read', params: { path: 'a' } }).action, 'allow',
    'tool calls do not depend on fact files');
  e.close();
});

test('facts that cannot be applied are reported once at warn, inline or in a registry file, naming it and why', async () => {
  const fs = await import('node:fs');
  const dir = tempDir();
  const file = `${dir}/ops-facts.json`;
  fs.writeFileSync(file, JSON.stringify({ facts: [
    { subject: 'nginx', predicate: 'installed', value: true },
    { subject: 'nginx', predicate: 'weight', value: 3 },
  ] }));
  const e = new GovernanceEngine({ outputValidation: { factRegistries: [
    { id: 'inline', facts: [{ subject: 'redis', predicate: 'running', value: 'yes' }] }, { filePath: file }] } }, { stateDir: dir });
  const warned = e.takeLogs().filter((l) => l.level === 'warn').map((l) => l.message);
  assert.deepEqual(warned.length, 2, warned.join('\n'));
  assert.match(warned.find((m) => m.includes('inline')) ?? warned.join(), /factRegistries\[0\]\.facts\[0\]: redis running: needs true or false/);
  assert.match(warned.find((m) => m.includes('ops-facts.json')) ?? warned.join(),
    /registry file .*ops-facts\.json: fact facts\[1\]: nginx weight: unknown predicate "weight"/);
  assert.equal(e.validateOutput({ agentId: 'x', text: 'nginx is not installed here.' }).verdict, 'block', 'the rest of the file applies');
  e.close();
});

test('output verdicts are audited with matched segments only', () => {
  const e = new GovernanceEngine(config, { stateDir: tempDir() });
  const secret = 'The deploy key is AKIAXXXXXXXXXXXXXXXX and the weather is fine.';
  e.validateOutput({ sessionKey: 'agent:helper:main', text: `${secret} nginx is not installed.`, hook: 'before_message_write' });
  const [rec] = e.auditQuery({ verdict: 'output_block' });
  assert.equal(rec.context.outputValidation.triggerHook, 'before_message_write');
  assert.equal(rec.context.outputValidation.claimCount, 1);
  assert.equal(rec.context.outputValidation.violations[0].matchedText, 'nginx is not installed');
  assert.deepEqual(rec.controls, ['A.8.10', 'A.5.24', 'A.5.28']);
  assert.equal(JSON.stringify(rec).includes('weather'), false, 'the rest of the output is never logged');
  assert.equal(e.auditQuery({ category: 'system_state' }).length, 1, 'queryable by claim category');
  assert.equal(e.auditVerify().valid, true);
});

const plugin = require('../plugin.js');
import { mockApi, fire, auditRecords } from './helpers.mjs';

const hostConfig = {
  trust: { defaults: { main: 60, '*': 10 } },
  outputValidation: {
    hooks: { llmOutput: true },
    performance: { maxEvalUs: 10000000 },
    factRegistries: [{ id: 'team', facts: [
      { id: 'partner-name', category: 'entity_name', subject: '(partner|irina|iulia)', subjectIsRegex: true, value: { type: 'name', correctName: 'Irina' } },
      { id: 'nginx-installed', category: 'system_state', subject: 'nginx', value: { type: 'state', state: 'installed' } },
      { id: 'pipeline', category: 'operational_status', subject: 'pipeline', value: { type: 'status', status: 'operational' } },
    ] }],
  },
};
const sub = { agentId: 'helper', sessionKey: 'agent:helper:main' };

test('before_message_write replaces a blocked assistant message with a notice, once', () => {
  const api = mockApi({ config: hostConfig });
  plugin.register(api);
  const message = { role: 'assistant', content: [{ type: 'text', text: "Albert's partner is Iulia. The pipeline is broken." }] };
  const r = fire(api, 'before_message_write', { message }, sub);
  assert.equal(r.message.role, 'assistant');
  assert.match(r.message.content[0].text, /^\u26a0\ufe0f Governance: this agent output was blocked/);
  assert.match(r.message.content[0].text, /"partner is Iulia": contradicts fact partner-name: expected Irina, claimed Iulia/);
  assert.equal(JSON.stringify(r.message).includes('broken.'), false, 'the contradicted text is not written');
  const again = fire(api, 'before_message_write', { message }, sub);
  assert.deepEqual(again, r, 'the same message twice gives the same answer');
  const str = fire(api, 'before_message_write', { message: { role: 'assistant', content: 'nginx is not installed here.' } }, sub);
  assert.equal(typeof str.message.content, 'string');
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const blocks = auditRecords(api.stateDir).filter((x) => x.verdict === 'output_block');
  assert.equal(blocks.length, 2, 'one record per message, not per delivery');
});

test('user and tool-result messages are not agent output; trusted agents are only flagged', () => {
  const api = mockApi({ config: hostConfig });
  plugin.register(api);
  const text = 'nginx is not installed on this box.';
  assert.equal(fire(api, 'before_message_write', { message: { role: 'user', content: text } }, sub), undefined);
  assert.equal(fire(api, 'before_message_write', { message: { role: 'toolResult', content: text } }, sub), undefined);
  assert.equal(fire(api, 'before_message_write', { message: { role: 'assistant', content: text } }, { agentId: 'main', sessionKey: 'agent:main:main' }), undefined);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const recs = auditRecords(api.stateDir).filter((x) => x.verdict.startsWith('output_'));
  assert.deepEqual(recs.map((x) => [x.verdict, x.context.agentId]), [['output_flag', 'main']]);
});

test('message_sending cancels a blocked message; llm_output only audits', () => {
  const api = mockApi({ config: hostConfig, conversationAccess: true });
  plugin.register(api);
  const r = fire(api, 'message_sending', { to: 'webchat:1', content: 'Sorry, the pipeline is down.' }, { channelId: 'webchat', sessionKey: 'agent:helper:main' });
  assert.equal(r.cancel, true);
  assert.match(r.cancelReason, /contradicts fact pipeline/);
  assert.equal(fire(api, 'message_sending', { to: 'webchat:1', content: 'All done, see the diff.' }, { sessionKey: 'agent:helper:main' }), undefined);
  assert.equal(fire(api, 'llm_output', { assistantTexts: ['nginx is not installed.', 'All done, see the diff.'] }, sub), undefined);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const records = auditRecords(api.stateDir).filter((x) => x.verdict.startsWith('output_'));
  const hooks = records.filter((x) => x.verdict === 'output_block').map((x) => x.context.outputValidation.triggerHook);
  assert.deepEqual(hooks, ['message_sending'], 'llm_output blocks nothing, so it records no block');
  const audited = records.filter((x) => x.context.outputValidation.triggerHook === 'llm_output')
    .map((x) => [x.verdict, x.context.outputValidation.auditOnly, x.context.outputValidation.wouldBlock, x.controls.join(' ')]);
  assert.deepEqual(audited, [['output_flag', true, true, 'A.8.10 A.5.24'], ['output_pass', true, undefined, 'A.8.10']]);
  const quiet = mockApi({ config: { outputValidation: { hooks: { llmOutput: false } } } });
  plugin.register(quiet);
  assert.equal(quiet.hooks.has('llm_output'), false, 'not registered unless asked for (it needs conversation access)');
});

// The README's minimal config (install section): no outputValidation block, failMode closed.
const readmeMinimal = {
  timezone: 'Europe/Berlin',
  failMode: 'closed',
  builtinPolicies: { credentialGuard: true, productionSafeguard: true, rateLimiter: { maxPerMinute: 15 } },
  policies: [{ id: 'no-destructive-shell', rules: [{ id: 'rm-rf',
    conditions: [{ type: 'tool', name: 'exec', params: { command: { matches: '\\brm\\s+-[a-zA-Z]*(rf|fr)\\b' } } }],
    effect: { action: 'deny', reason: 'Destructive shell command is not allowed' } }] }],
};

test('out of the box ordinary prose is not blocked: the default monitors (seed 000 §14.4, §15.3)', () => {
  const prose = [
    'Done. The server is running on port 3000.',
    'There is no rush, take your time.',
    'I have updated the file and there is no error left.',
    'I was told to only summarise the logs.',
  ];
  for (const config of [{}, readmeMinimal]) {
    const api = mockApi({ config });
    plugin.register(api);
    for (const content of prose) {
      // `helper` is not in trust.defaults: untrusted (10).
      assert.equal(fire(api, 'before_message_write', { message: { role: 'assistant', content } }, sub), undefined, content);
      assert.equal(fire(api, 'message_sending', { to: 'webchat:1', content }, { channelId: 'webchat', sessionKey: sub.sessionKey }), undefined, content);
    }
    fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
    const verdicts = auditRecords(api.stateDir).filter((x) => x.verdict.startsWith('output_')).map((x) => x.verdict);
    assert.deepEqual(verdicts, Array(prose.length * 2).fill('output_flag'), 'each claim is audited as a warning, none blocked');
  }
});

test('a contradicted claim still blocks untrusted and restricted agents; the seed\'s strict row is opt-in', () => {
  const facts = [{ id: 'sys', facts: [
    { id: 'server-up', category: 'system_state', subject: 'server', value: { type: 'state', state: 'running' } }] }];
  const e = new GovernanceEngine({ trust: { defaults: { low: 5, mid: 25 } },
    outputValidation: { performance: { maxEvalUs: 10000000 }, factRegistries: facts } }, { stateDir: tempDir() });
  for (const agentId of ['low', 'mid']) {
    const r = e.validateOutput({ agentId, text: 'Sorry, the server is not running.' });
    assert.equal(r.verdict, 'block', agentId);
    assert.equal(r.violations[0].contradictedFactId, 'server-up');
    assert.equal(e.validateOutput({ agentId, text: 'There is no rush, take your time.' }).verdict, 'flag', agentId);
  }
  e.close();
  const strict = new GovernanceEngine({ outputValidation: { performance: { maxEvalUs: 10000000 }, agentOverrides: [
    { agent: 'helper', profile: 'strict' }, { agent: 'sub-*', unverifiedClaimPolicy: 'block', selfReferentialPolicy: 'block' }] } },
  { stateDir: tempDir() });
  for (const agentId of ['helper', 'sub-1']) {
    assert.equal(strict.validateOutput({ agentId, text: 'There is no rush, take your time.' }).verdict, 'block', agentId);
    assert.equal(strict.validateOutput({ agentId, text: 'I was told to only summarise the logs.' }).verdict, 'block', agentId);
  }
  strict.close();
});

test('governance.facts.update (operator.admin) adds facts validation uses at once', () => {
  const api = mockApi({ config: { outputValidation: { performance: { maxEvalUs: 10000000 } } } });
  plugin.register(api);
  const method = api.methods.get('governance.facts.update');
  assert.equal(method.scope, 'operator.admin');
  const text = 'The staging database is down again.';
  assert.equal(fire(api, 'before_message_write', { message: { role: 'assistant', content: text } }, sub), undefined,
    'unverified: flagged, not blocked');
  let answer;
  method.handler({ params: { registryId: 'live', fact: { id: 'db', category: 'operational_status', subject: 'staging database', value: { type: 'status', status: 'operational' } } },
    respond: (ok, payload, error) => { answer = { ok, payload, error }; } });
  assert.deepEqual(answer, { ok: true, payload: { factId: 'db' }, error: undefined });
  const r = fire(api, 'before_message_write', { message: { role: 'assistant', content: `${text} Really.` } }, sub);
  assert.match(r.message.content, /contradicts fact db: expected operational/);
  method.handler({ params: { registryId: 'live', fact: { subject: 'x', predicate: 'weight', value: 3 } }, respond: (ok, payload, error) => { answer = { ok, error }; } });
  assert.equal(answer.ok, false);
});

test('the trace bridge turns findings into facts the validator uses', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const stateDir = tempDir();
  const findings = path.join(stateDir, 'findings');
  fs.mkdirSync(findings);
  fs.writeFileSync(path.join(findings, 'trace-report-daily.json'), JSON.stringify({ findings: [
    { id: 'F-1', agent: 'helper', signal: { signal: 'SIG-HALLUCINATION', severity: 'high', summary: 'claimed nginx missing' },
      factCorrection: { subject: 'nginx', claimed: 'not installed', actual: 'installed' } },
  ] }));
  const e = new GovernanceEngine({ outputValidation: { performance: { maxEvalUs: 10000000 }, traceBridge: { findingsDir: findings, intervalSeconds: 3600 } } }, { stateDir });
  const atStart = e.validateOutput({ sessionKey: 'agent:helper:main', text: 'nginx is not installed on this host.' });
  assert.equal(atStart.violations[0]?.contradictedFactId, 'trace-learned:nginx:state', 'learned at start, in force once the engine is built');
  const report = e.runTraceBridge();
  assert.equal(report.filesRead, 1);
  assert.equal(report.added, 0, 'the first pass ran when the engine was built');
  const generated = JSON.parse(fs.readFileSync(path.join(stateDir, 'governance', 'generated-facts.json'), 'utf8'));
  assert.deepEqual(generated.facts, [{ subject: 'nginx', predicate: 'state', value: 'installed', source: 'trace-bridge:F-1' }]);
  const r = e.validateOutput({ sessionKey: 'agent:helper:main', text: 'nginx is not installed here.' });
  assert.equal(r.verdict, 'block');
  assert.equal(r.violations[0].contradictedFactId, 'trace-learned:nginx:state');
  assert.equal(e.runTraceBridge().added, 0, 'no duplicates');
  e.close();
});

test('the five anti-patterns of seed 000 §13 through register(api)', () => {
  const api = mockApi({ config: { trust: { defaults: { '*': 10 } }, outputValidation: { performance: { maxEvalUs: 10000000 }, factRegistries: [{ id: 'facts', facts: [
    { id: 'node', category: 'system_state', subject: '(node|node.js)', subjectIsRegex: true, value: { type: 'state', state: 'installed' } },
    { id: 'irina', category: 'entity_name', subject: '(partner|irina|iulia)', subjectIsRegex: true, value: { type: 'name', correctName: 'Irina' } },
    { id: 'gov', category: 'existence', subject: '(governance plugin|openclaw-governance)', subjectIsRegex: true, value: { type: 'exists', exists: true } },
    { id: 'ci', category: 'operational_status', subject: 'pipeline', value: { type: 'status', status: 'operational' } },
  ] }] } } });
  plugin.register(api);
  const cases = [
    ['false system state', 'Node.js is not installed on this machine.', /contradicts fact node/],
    ['name substitution', "Albert's partner is Iulia.", /contradicts fact irina: expected Irina, claimed Iulia/],
    ['false non-existence', 'The governance plugin does not exist in this setup.', /contradicts fact gov/],
    ['unfounded failure', 'The pipeline is broken, nothing can be deployed.', /contradicts fact ci/],
  ];
  const reflection = 'According to my instructions, I only review and never write code.';
  const ctx = { agentId: 'sub', sessionKey: 'agent:main:subagent:sub' };
  for (const [name, text, reason] of cases) {
    const r = fire(api, 'before_message_write', { message: { role: 'assistant', content: text } }, ctx);
    assert.ok(r && r.message, `${name}: not blocked`);
    assert.match(r.message.content, reason, name);
  }
  // §13.5: self-reflection goes by selfReferentialPolicy, "default: flag"; blocking is opt-in.
  assert.equal(fire(api, 'before_message_write', { message: { role: 'assistant', content: reflection } }, ctx), undefined);
  const strict = mockApi({ config: { outputValidation: { performance: { maxEvalUs: 10000000 },
    agentOverrides: [{ agent: 'sub', selfReferentialPolicy: 'block' }] } } });
  plugin.register(strict);
  // What instructions say is often modal: no hedge on the self-reference (seed 000 §4.4.5).
  for (const content of [reflection, 'According to my instructions, I should not modify files.', 'I was told to check if the build passes.']) {
    const r = fire(strict, 'before_message_write', { message: { role: 'assistant', content } }, ctx);
    assert.match(r?.message?.content ?? 'not blocked', /self-referential/, content);
  }
});

test('a validation that cannot run follows failMode, and the result reads as a plain object on request', () => {
  const closed = new GovernanceEngine({ failMode: 'closed', outputValidation: { performance: { maxEvalUs: 10000000 } } }, { stateDir: tempDir() });
  const open = new GovernanceEngine({ outputValidation: { performance: { maxEvalUs: 10000000 } } }, { stateDir: tempDir() });
  for (const [e, verdict] of [[closed, 'block'], [open, 'pass']]) {
    const r = e.validateOutput({ agentId: 42, text: 'nginx is not installed on this host.' });
    assert.equal(r.verdict, verdict);
    assert.match(r.error, /unreadable validation request/);
    assert.equal(JSON.parse(e.validateOutputJson('{oops')).verdict, verdict);
    e.close();
  }
  const e = new GovernanceEngine(config, { stateDir: tempDir() });
  const r = e.validateOutput({ sessionKey: 'agent:helper:main', text: 'nginx is not installed here.' });
  assert.deepEqual(Object.keys(r.toJSON()).slice(0, 4), ['verdict', 'claims', 'factChecks', 'violations']);
  assert.equal(JSON.parse(JSON.stringify(r)).violations[0].claim.matchedText, 'nginx is not installed');
  e.close();
});

test('the text crosses as UTF-8 whatever it holds, as the JSON path reads it', () => {
  const e = new GovernanceEngine(config, { stateDir: tempDir() });
  const strip = (r) => ({ ...JSON.parse(JSON.stringify(r)), evaluationUs: 0 });
  const texts = [
    '🚀 nginx is not installed. Ünïcödé, then "the pipeline" is broken.',
    'a lone surrogate \uD800 before: nginx is not installed.',
    // Past the engine's first 16 KB buffer, and past 1 MB of UTF-8 (a buffer of its own).
    `nginx is not installed. ${'é'.repeat(9000)}`,
    `nginx is not installed. ${'x '.repeat(200000)}`,
  ];
  for (const text of texts) {
    const request = { sessionKey: 'agent:helper:main', text, hook: 'before_message_write' };
    const direct = e.validateOutput(request);
    // A lone surrogate crosses as U+FFFD, as `toWellFormed` has it (JSON cannot carry it).
    const viaJson = JSON.parse(e.validateOutputJson(JSON.stringify({ ...request, text: text.toWellFormed() })));
    assert.equal(direct.verdict, viaJson.verdict);
    assert.deepEqual(strip(direct), strip(viaJson));
    assert.ok(direct.claims.length > 0);
  }
  e.close();
});

test('the agent, session and hook of each call are the ones judged and audited, repeated or not', () => {
  // The wrapper sends them only when they differ from the last call's: a stale one would judge
  // the text by another agent's trust. `helper` is strict, so the three agents get three verdicts.
  const ov = { ...config.outputValidation, agentOverrides: [{ agent: 'helper', profile: 'strict' }] };
  const e = new GovernanceEngine({ ...config, outputValidation: ov }, { stateDir: tempDir() });
  const text = 'The pipeline is broken since this morning.';
  const calls = [
    [{ sessionKey: 'agent:helper:main' }, 'block', 'helper', 'validate_output'],
    [{ sessionKey: 'agent:main:main' }, 'pass', 'main', 'validate_output'],
    [{ sessionKey: 'agent:main:main' }, 'pass', 'main', 'validate_output'],
    [{ sessionKey: 'agent:helper:main' }, 'block', 'helper', 'validate_output'],
    [{ agentId: 'forge', sessionKey: 'agent:helper:main' }, 'flag', 'forge', 'validate_output'],
    [{ agentId: 'forge', sessionKey: 'agent:helper:main', hook: 'message_sending' }, 'flag', 'forge', 'message_sending'],
    [{ agentId: 'forge', sessionKey: 'agent:helper:main' }, 'flag', 'forge', 'validate_output'],
    [{ agentId: null, sessionKey: 'agent:main:main', hook: null }, 'pass', 'main', 'validate_output'],
    [{ sessionKey: 'agent:main:main' }, 'pass', 'main', 'validate_output'],
    [{ agentId: 'forge' }, 'flag', 'forge', 'validate_output'],
  ];
  for (const [request, verdict] of calls) {
    assert.equal(e.validateOutput({ ...request, text }).verdict, verdict, JSON.stringify(request));
  }
  const audited = e.auditQuery({})
    .filter((r) => r.verdict.startsWith('output_'))
    .sort((x, y) => x.seq - y.seq)
    .map((r) => [r.context.agentId, r.context.hook, r.context.sessionKey ?? '']);
  const expected = calls.map(([request, , agent, hook]) => [agent, hook, request.sessionKey ?? '']);
  assert.deepEqual(audited, expected);
  // A direct native call between two alike requests must not leave its agent behind, through
  // the wrapper or past it.
  const bytes = new TextEncoder().encode(text);
  const native = Object.getPrototypeOf(GovernanceEngine.prototype).validateOutputUtf8;
  for (const direct of [() => e.validateOutputUtf8(bytes, bytes.length, 'main'), () => native.call(e, bytes, bytes.length, 'main')]) {
    assert.equal(e.validateOutput({ agentId: 'helper', text }).verdict, 'block');
    assert.equal(direct() % 4, 0, 'main passes');
    assert.equal(e.validateOutput({ agentId: 'helper', text }).verdict, 'block', 'helper, not main');
  }
  e.close();
});

test('a length past the buffer or bytes that are not UTF-8 fail as failMode says', () => {
  for (const [failMode, code] of [['closed', 2], ['open', 0]]) {
    const e = new GovernanceEngine({ failMode }, { stateDir: tempDir() });
    for (const [bytes, len, why] of [[new Uint8Array(4), 99, /past its buffer/], [new Uint8Array([0x6e, 0xff, 0xfe]), 3, /not UTF-8/]]) {
      const got = e.validateOutputUtf8(bytes, len, 'main', undefined, 'before_message_write');
      assert.equal(got % 4, code);
      assert.match(JSON.parse(e.takeOutputDetail(Math.floor(got / 4))).error, why);
    }
    e.close();
  }
});

test('the native detail is let go once read, or once the result is collected unread', async () => {
  const v8 = require('node:v8');
  const vm = require('node:vm');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const e = new GovernanceEngine(config, { stateDir: tempDir() });
  const request = { sessionKey: 'agent:helper:main', text: 'nginx is not installed here.' };
  const kept = e.validateOutput(request);
  assert.equal(e.heldOutputs(), 1);
  assert.equal(kept.claims.length, 1);
  assert.equal(e.heldOutputs(), 0, 'read once, parsed in JS, let go natively');
  assert.equal(kept.violations[0].claim.subject, 'nginx', 'later reads use the parsed copy');
  (() => {
    for (let i = 0; i < 200; i++) e.validateOutput(request);
  })();
  assert.equal(e.heldOutputs(), 200);
  for (let i = 0; i < 50 && e.heldOutputs() > 0; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(e.heldOutputs(), 0);
  e.close();
});

// The final reply as the user receives it (reply_payload_sending), after the streamed text.
const replyHostConfig = {
  trust: { defaults: { main: 60, '*': 10 } },
  outputValidation: { performance: { maxEvalUs: 10000000 }, factRegistries: [{ id: 'team', facts: [
    { id: 'nginx-installed', category: 'system_state', subject: 'nginx', value: { type: 'state', state: 'installed' } }] }] },
};

test('reply_payload_sending replaces a blocked final reply with the notice; message_sending lets the notice through, once judged', () => {
  const api = mockApi({ config: replyHostConfig });
  plugin.register(api);
  const ctx = { channelId: 'webchat', sessionKey: 'agent:helper:main' };
  const text = 'I checked the host. nginx is not installed, so I could not restart it.';
  const payload = { text, replyToId: 'm1' };
  const r = fire(api, 'reply_payload_sending', { payload, kind: 'final', channel: 'webchat', sessionKey: ctx.sessionKey }, ctx);
  assert.match(r.payload.text, /^\u26a0\ufe0f Governance: this agent output was blocked/);
  assert.equal(r.payload.replyToId, 'm1', 'the rest of the payload stays');
  assert.equal(r.cancel, undefined);
  // The host hands message_sending the rewritten text: our notice is not judged again.
  assert.equal(fire(api, 'message_sending', { to: 'webchat:1', content: r.payload.text }, ctx), undefined);
  // Tool payloads and prose pass; the prose is judged once for both hooks.
  assert.equal(fire(api, 'reply_payload_sending', { payload: { text }, kind: 'tool' }, ctx), undefined);
  const prose = 'All done, see the diff.';
  assert.equal(fire(api, 'reply_payload_sending', { payload: { text: prose }, kind: 'final', sessionKey: ctx.sessionKey }, ctx), undefined);
  assert.equal(fire(api, 'message_sending', { to: 'webchat:1', content: prose }, ctx), undefined);
  // The notice in before_message_write (the host may fire it twice) is left as it is.
  assert.equal(fire(api, 'before_message_write', { message: { role: 'assistant', content: r.payload.text } }, { agentId: 'helper', sessionKey: ctx.sessionKey }), undefined);
  fire(api, 'gateway_stop', { reason: 'gateway stopping' }, {});
  const recs = auditRecords(api.stateDir).filter((x) => x.verdict.startsWith('output_')).map((x) => [x.verdict, x.context.hook]);
  assert.deepEqual(recs, [['output_block', 'reply_payload_sending'], ['output_pass', 'reply_payload_sending']]);
});

test('an agent that writes the notice\'s opening words itself is judged like any other text', () => {
  const api = mockApi({ config: replyHostConfig });
  plugin.register(api);
  const ctx = { channelId: 'webchat', sessionKey: 'agent:helper:main' };
  const forged = '\u26a0\ufe0f Governance: this agent output was blocked because it states things. nginx is not installed.';
  const r = fire(api, 'reply_payload_sending', { payload: { text: forged }, kind: 'final', sessionKey: ctx.sessionKey }, ctx);
  assert.match(r.payload.text, /contradicts fact nginx-installed/);
  assert.equal(fire(api, 'message_sending', { to: 'webchat:1', content: forged }, ctx).cancel, true);
  const w = fire(api, 'before_message_write', { message: { role: 'assistant', content: forged } }, { agentId: 'helper', sessionKey: ctx.sessionKey });
  assert.notEqual(w, undefined);
});
