// The command line as an operator meets it: the audit table, usage errors, and `check`'s state
// directory and config handling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');
const cli = path.join(root, 'bin', 'openclaw-governance.js');
const run = (args, env = {}) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
const example = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'governance.json'), 'utf8'));

/** A state dir whose trail holds one deny with a reason an agent could have shaped: lines, tabs, an escape, length. */
function trickyLog() {
  const stateDir = tempDir();
  const reason = `first line\nsecond\tline \u001b[31mred\u001b[0m ${'x'.repeat(200)} END`;
  const engine = new GovernanceEngine({
    policies: [{ id: 'p', rules: [{ id: 'r', conditions: [{ type: 'tool', name: 'exec' }], effect: { action: 'deny', reason } }] }],
  }, { stateDir });
  engine.evaluateSync({ hook: 'before_tool_call', agentId: 'main', sessionKey: 'agent:main:main', toolName: 'exec', params: { command: 'ls' } });
  engine.evaluateSync({ hook: 'before_tool_call', agentId: 'main', sessionKey: 'agent:main:main', toolName: 'read', params: { path: 'a' } });
  engine.close();
  return stateDir;
}

test('audit query --table: a header, one line per record, control characters escaped, long cells cut visibly', () => {
  const dir = trickyLog();
  const r = run(['audit', 'query', '--dir', dir, '--table']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  assert.match(lines[0], /^\s*seq\s+time\s+verdict\s+agent\s+action\s+rule\s+risk\s+reason$/);
  assert.match(lines[1], /^[-\s]+$/);
  const records = run(['audit', 'query', '--dir', dir]).stdout.trim().split('\n');
  assert.equal(records.length, 3, 'the deny, the allow, and the trust change the deny caused');
  assert.equal(lines.length, 2 + records.length, `header, rule and one line per record:\n${r.stdout}`);
  const deny = lines.find((l) => /\bdeny\b/.test(l));
  assert.ok(deny.includes('first line\\nsecond\\tline \\x1b[31mred'), deny);
  assert.ok(!/[\t\u001b]/.test(r.stdout), 'no raw tab or escape reaches the terminal');
  assert.match(deny, /…\(\+\d+ chars\)$/, 'a cut cell says so and by how much');
  assert.ok(!deny.includes('END'));
  assert.match(lines.find((l) => /\ballow\b/.test(l)), /\bmain\s+read\b/);
});

test('audit query --table on an empty result still prints the header', () => {
  const dir = trickyLog();
  const r = run(['audit', 'query', '--dir', dir, '--table', '--agent', 'nobody']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[0].trim().split(/\s+/)[0], 'seq');
});

test('unknown values of enumerated filters and unknown flags are usage errors (exit 2) naming the flag and the choices', () => {
  const dir = trickyLog();
  const cases = [
    [['audit', 'query', '--verdict', 'bogus'], /--verdict: unknown value "bogus"/, /allow, deny, escalate,.*output_block/],
    [['audit', 'query', '--verdict', 'DENY'], /--verdict: unknown value "DENY"/, /did you mean "deny"/],
    [['audit', 'export', '--format', 'csv', '--risk', 'extreme'], /--risk: unknown value "extreme"/, /low, medium, high, critical/],
    [['audit', 'query', '--hook', 'before_tool'], /--hook: unknown value "before_tool"/, /before_tool_call/],
    [['audit', 'query', '--category', 'vibes'], /--category: unknown value "vibes"/, /system_state/],
    [['audit', 'query', '--limit', 'ten'], /--limit: "ten" is not a whole number/, /./],
    [['audit', 'query', '--verbose'], /unknown option --verbose for "audit query"/, /--table/],
    [['audit', 'verify', '--table'], /unknown option --table for "audit verify"/, /--pubkey/],
    [['audit', 'query', '--agent'], /--agent needs a value/, /./],
    [['audit', 'export', '--format', 'xml'], /--format: unknown value "xml"/, /json, csv/],
    [['check', '--jsno'], /unknown option --jsno/, /./],
  ];
  for (const [args, first, second] of cases) {
    const r = run(args[0] === 'audit' ? [...args.slice(0, 2), '--dir', dir, ...args.slice(2)] : args);
    assert.equal(r.status, 2, `${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, '', `${args.join(' ')} prints nothing on stdout`);
    assert.match(r.stderr, first, args.join(' '));
    assert.match(r.stderr, second, args.join(' '));
  }
  // the accepted spellings still work
  assert.equal(run(['audit', 'query', '--dir', dir, '--verdict', 'deny']).status, 0);
  assert.equal(run(['audit', 'query', '--dir', dir, '--verdict=deny', '--hook', 'unknown:custom_hook']).status, 0);
  assert.equal(run(['audit', 'query', '--dir', dir, '--verdict', 'governance.trust.change']).status, 0);
});

test('the CLI\'s filter values are the ones the Rust core writes', () => {
  const { FILTER_VALUES } = require('../bin/audit.js');
  const src = (f) => fs.readFileSync(path.join(root, 'src', f), 'utf8');
  const between = (text, from, to) => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));
  const quoted = (text) => [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const verdicts = quoted(between(src('audit/record.rs'), 'pub fn as_str(self)', '\n    }\n'));
  assert.deepEqual([...FILTER_VALUES.verdict].sort(), [...new Set(verdicts)].sort());
  const names = (file) => quoted(between(src(file), 'pub const NAMES', '];'));
  assert.deepEqual(FILTER_VALUES.risk, names('risk.rs'));
  assert.deepEqual(FILTER_VALUES.category, names('output/claims.rs'));
  const hooks = names('context.rs');
  assert.equal(hooks.length, 6);
  for (const hook of hooks) assert.ok(FILTER_VALUES.hook.includes(hook), hook);
  assert.equal(verdicts.length, 17, "the extraction found every verdict");
});

test('check removes the state directory it made, on success and on error', () => {
  const tmp = tempDir();
  const ok = run(['check'], { TMPDIR: tmp });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /audit trail: \d+ records? in a temporary directory, removed \(--state-dir DIR keeps it\)/);
  assert.deepEqual(fs.readdirSync(tmp), []);
  const bad = path.join(tempDir(), 'bad.json');
  fs.writeFileSync(bad, JSON.stringify({ failMode: 'sometimes' }));
  const err = run(['check', '--config', bad], { TMPDIR: tmp });
  assert.equal(err.status, 1);
  assert.match(err.stderr, /failMode/);
  assert.deepEqual(fs.readdirSync(tmp), []);
});

test('check removes its state directory when interrupted by SIGTERM', async () => {
  const tmp = tempDir();
  // Long enough that the signal lands mid-replay.
  const lines = fs.readFileSync(path.join(root, 'examples', 'session.jsonl'), 'utf8').trim().split('\n');
  const session = path.join(tempDir(), 'long.jsonl');
  fs.writeFileSync(session, `${Array.from({ length: 3000 }, () => lines).flat().join('\n')}\n`);
  const child = spawn(process.execPath, [cli, 'check', session, '--json'], { env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  for (let i = 0; i < 400 && fs.readdirSync(tmp).length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(fs.readdirSync(tmp).length, 1, 'the replay made its directory');
  child.kill('SIGTERM');
  const { code } = await exited;
  assert.equal(code, 143, 'exit status says it was terminated');
  assert.deepEqual(fs.readdirSync(tmp), []);
});

function hostConfig(entry) {
  return {
    models: { providers: {} },
    agents: { defaults: { model: 'fake/fake-model' } },
    plugins: { entries: { other: { enabled: true }, ...(entry ? { 'openclaw-governance': entry } : {}) } },
  };
}

test('check accepts a whole openclaw.json and uses the plugin\'s entry, saying so', () => {
  const dir = tempDir();
  const direct = JSON.parse(run(['check', '--json']).stdout).map((r) => [r.action, r.ruleId ?? null]);
  const file = path.join(dir, 'openclaw.json');
  fs.writeFileSync(file, JSON.stringify(hostConfig({ enabled: true, config: example })));
  const json = run(['check', '--config', file, '--json']);
  assert.equal(json.status, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout).map((r) => [r.action, r.ruleId ?? null]), direct);
  assert.match(json.stderr, /plugins\.entries\["openclaw-governance"\]\.config/);
  const text = run(['check', '--config', file]);
  assert.match(text.stdout, /^config:\s+.*openclaw\.json → plugins\.entries\["openclaw-governance"\]\.config$/m);
  // the host's config file is JSON5: comments, trailing commas, unquoted keys, single quotes
  const json5 = path.join(dir, 'openclaw.json5.json');
  fs.writeFileSync(json5, `// my gateway\n{ plugins: { entries: { 'openclaw-governance': { enabled: true, /* inline */ config: ${JSON.stringify(example)}, }, }, }, }\n`);
  const r5 = run(['check', '--config', json5, '--json']);
  assert.equal(r5.status, 0, r5.stderr);
  assert.deepEqual(JSON.parse(r5.stdout).map((r) => [r.action, r.ruleId ?? null]), direct);
});

test('check on an openclaw.json without the plugin, or with it disabled, says so', () => {
  const dir = tempDir();
  const missing = path.join(dir, 'missing.json');
  fs.writeFileSync(missing, JSON.stringify(hostConfig(null)));
  const r = run(['check', '--config', missing]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no plugins\.entries\["openclaw-governance"\]: the plugin is not configured/);
  const disabled = path.join(dir, 'disabled.json');
  fs.writeFileSync(disabled, JSON.stringify(hostConfig({ enabled: false, config: example })));
  const d = run(['check', '--config', disabled]);
  assert.equal(d.status, 0, d.stderr);
  assert.match(d.stderr, /enabled is false: the host does not load the plugin, so nothing in this session would be governed/);
  const empty = path.join(dir, 'noconfig.json');
  fs.writeFileSync(empty, JSON.stringify(hostConfig({ enabled: true })));
  const e = run(['check', '--config', empty]);
  assert.equal(e.status, 0, e.stderr);
  assert.match(e.stderr, /has no config: replaying the plugin's defaults/);
});

// `provenance`: a session's turn graphs from a JSON file (the gateway method's answer) as a picture.
test('provenance --file draws the gateway\'s answer as DOT and Mermaid whose edges join declared nodes, whatever the file says', async () => {
  const { assertDot, assertMermaid } = await import('./graph-shapes.mjs');
  const dir = tempDir();
  const engine = new GovernanceEngine({ builtinPolicies: {}, provenance: { policies: [
    { name: 'no-exec-when-tainted', when: { context_taint_includes: ['untrusted'] }, action: { block_tools: ['exec'] } }] } }, { stateDir: dir });
  const S = 'agent:main:cli';
  engine.observeModelCall(S, 'run-1');
  engine.observeToolResult({ hook: 'before_tool_call', sessionKey: S, toolName: 'web_fetch', params: { url: 'https://evil.example/' }, runId: 'run-1' },
    'a "quoted" \\N page } ]) --> x\n{{ #quot; <b>');
  assert.equal(engine.evaluateSync({ hook: 'before_tool_call', sessionKey: S, toolName: 'exec', params: { command: 'ls' }, runId: 'run-1' }).action, 'deny');
  const answer = engine.provenanceGraph(S);
  engine.close();
  // A hand-edited file: an edge to a node that does not exist, a relation that is markup.
  answer.current.edges.push({ from: 'n1', to: 'n99', relation: 'produces' }, { from: 'n1', to: 'n2', relation: 'x"] --> evil' });
  const file = path.join(dir, 'graph.json');
  fs.writeFileSync(file, JSON.stringify(answer));
  const dot = run(['provenance', '--file', file, '--format', 'dot']);
  assert.equal(dot.status, 0, dot.stderr);
  const { edges } = assertDot(dot.stdout);
  assert.ok(!edges.some(([, b]) => b.endsWith('n99')), 'an edge to an undeclared node is left out');
  const mmd = run(['provenance', '--file', file, '--format', 'mermaid']);
  assert.equal(mmd.status, 0, mmd.stderr);
  assertMermaid(mmd.stdout);
  const out = path.join(dir, 'graph.dot');
  assert.equal(run(['provenance', '--file', file, '--format', 'dot', '--out', out]).status, 0);
  assert.equal(fs.readFileSync(out, 'utf8'), dot.stdout);
  const text = run(['provenance', '--file', file]);
  assert.match(text.stdout, /turn run-1 {2}session agent:main:cli/);
  assert.match(text.stdout, /blocked: exec/);
  assert.equal(run(['provenance', '--file', file, '--format', 'svg']).status, 2, 'an unknown format is a usage error');
  assert.equal(run(['provenance']).status, 2, 'a session or a file is needed');
  assert.equal(run(['provenance', '--file', file, '--turn', 'nope']).status, 1);
});
