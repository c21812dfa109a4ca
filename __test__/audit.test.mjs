// The audit trail from the outside: the CLI on a real directory, the gateway methods and command,
// and a SIGKILL in the middle of a write burst.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tempDir, mockApi, fire, callMethod } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { GovernanceEngine, auditVerifyDir, auditPublicKey, auditProveDir } = require('../index.js');
const plugin = require('../plugin.js');
const cli = path.join(here, '..', 'bin', 'openclaw-governance.js');
const run = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

function sampleLog() {
  const dir = tempDir();
  const r = run('check', '--state-dir', dir);
  assert.equal(r.status, 0, r.stderr);
  return dir;
}

test('audit verify: exit 0 on the untouched log, 1 naming seq, file and reason after an edit', () => {
  const dir = sampleLog();
  const key = run('audit', 'pubkey', '--dir', dir).stdout.trim();
  assert.match(key, /^openclaw-governance-[0-9a-f]{8}\+[0-9a-f]{8}\+\S+$/);
  const ok = run('audit', 'verify', '--dir', dir, '--pubkey', key);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^VALID/);
  assert.match(ok.stdout, /signatures checked/);
  const audit = path.join(dir, 'governance', 'audit');
  const file = path.join(audit, fs.readdirSync(audit).find((f) => f.endsWith('.jsonl')));
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('-Rf /var/www/old-release'));
  const seq = JSON.parse(lines[at]).seq;
  fs.writeFileSync(file, lines.join('\n').replace('-Rf /var/www/old-release', '-la /var/www/old-release'));
  const bad = run('audit', 'verify', '--dir', dir, '--pubkey', key);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /^INVALID/);
  assert.ok(bad.stdout.includes(`seq ${seq}  ${path.basename(file)}:${at + 1}  hash does not match the record's contents (record altered)`), bad.stdout);
});

test('audit query, export and prove', () => {
  const dir = sampleLog();
  const denies = run('audit', 'query', '--dir', dir, '--verdict', 'deny').stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(denies.map((r) => r.ruleId), ['credential', 'destructive', 'untrusted-push', 'night-restrict']);
  assert.ok(denies.every((r) => r.executionPrevented === true && /^[0-9a-f]{64}$/.test(r.hash)));
  const intern = run('audit', 'query', '--dir', dir, '--agent', 'intern').stdout.trim().split('\n');
  assert.equal(intern.length, 1);
  const csv = run('audit', 'export', '--dir', dir, '--format', 'csv', '--risk', 'high').stdout.trim().split('\n');
  assert.match(csv[0], /^seq,timestampIso,verdict,hook,agentId/);
  assert.ok(csv.length >= 2 && csv.slice(1).every((row) => row.includes(',high,')));
  const rm = denies.find((r) => r.ruleId === 'destructive');
  const proof = auditProveDir(path.join(dir, 'governance', 'audit'), rm.seq);
  assert.equal(proof.record.ruleId, 'destructive');
  assert.equal(proof.leafHash, rm.hash);
  assert.ok(proof.treeSize > rm.seq);
  assert.match(proof.signedNote, new RegExp(`^openclaw-governance/[0-9a-f]{16}\n${proof.treeSize}\n\\S+\ntimestamp \\d+\n\n\u2014 `));
  assert.equal(run('audit', 'export', '--dir', dir).status, 2, 'export needs a format: a usage error');
});

test('gateway methods and /governance audit read the live trail', () => {
  // main's default is high enough that one block does not move its tier (a trust record).
  const api = mockApi({ config: { builtinPolicies: { credentialGuard: true }, trust: { defaults: { main: 75 } } } });
  plugin.register(api);
  fire(api, 'before_tool_call', { toolName: 'read', params: { path: '.env' } }, { agentId: 'main', sessionKey: 'agent:main:main' });
  fire(api, 'before_tool_call', { toolName: 'read', params: { path: 'a.md' } }, { agentId: 'forge', sessionKey: 'agent:forge:main' });
  const q = callMethod(api, 'governance.audit.query', { agent: 'main' });
  assert.equal(q.ok, true);
  assert.deepEqual(q.payload.map((r) => r.verdict), ['deny']);
  assert.equal(callMethod(api, 'governance.audit.query', { agnet: 'x' }).ok, false, 'a typo in a filter is an error');
  const v = callMethod(api, 'governance.audit.verify');
  assert.equal(v.ok, true);
  assert.equal(v.payload.valid, true);
  assert.equal(v.payload.records, 2);
  assert.equal(api.methods.get('governance.audit.verify').scope, 'operator.read');
  const text = api.commands.get('governance').handler({ args: 'audit forge 5' }).text;
  assert.match(text, /^#1 \S+ allow forge read$/);
});

test('SIGKILL in a write burst: every acknowledged block survives, the chain verifies', async () => {
  const stateDir = tempDir();
  const child = spawn(process.execPath, [path.join(here, 'crash-writer.cjs'), stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acked = [];
  await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (chunk) => {
      buf += chunk;
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const l of lines) if (l.startsWith('ACK ')) acked.push(l.slice(4));
      if (acked.length >= 300) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}`))));
  });
  // Restart on the same directory: torn-tail recovery and head recovery run here.
  const engine = new GovernanceEngine({}, { stateDir });
  engine.flush();
  const audit = path.join(stateDir, 'governance', 'audit');
  const report = engine.auditVerify();
  assert.equal(report.valid, true, JSON.stringify(report.problems));
  const stored = new Set(engine.auditQuery({ verdict: 'deny' }).map((r) => r.context.toolParams.command.split(' ')[2]));
  const lost = acked.filter((m) => !stored.has(m));
  assert.deepEqual(lost, [], 'acknowledged blocks lost');
  const torn = fs.readdirSync(audit).filter((f) => f.includes('.torn-'));
  const tornEvents = engine.auditQuery({ verdict: 'governance.chain.torn' });
  assert.equal(tornEvents.length, torn.length, 'every torn line moved aside is recorded');
  const key = auditPublicKey(path.join(stateDir, 'governance', 'keys', 'audit-signing.key'));
  const dirReport = auditVerifyDir(audit, key);
  assert.equal(dirReport.valid, true, JSON.stringify(dirReport.problems));
  engine.close();
});

test('checkpoint() signs everything written so far; the exit hook closes engines', () => {
  const stateDir = tempDir();
  const e = new GovernanceEngine({}, { stateDir });
  for (let i = 0; i < 3; i++) e.evaluateSync({ hook: 'before_tool_call', agentId: 'main', toolName: 'read', params: { path: `f${i}` } });
  assert.equal(e.auditVerify().lastCheckpoint, null, 'fewer than everyRecords and younger than everySeconds');
  e.checkpoint();
  const r = e.auditVerify();
  assert.equal(r.lastCheckpoint.size, 3);
  assert.equal(r.valid, true);
  assert.equal(e.getStatus().audit.checkpoints, 1);
  e.close();
  // A process that ends without gateway_stop still leaves its records signed (plugin.js exit hook).
  const script = `const p=require(${JSON.stringify(path.join(here, '..', 'plugin.js'))});
    const api={registrationMode:'full',pluginConfig:{},logger:console,runtime:{state:{resolveStateDir:()=>${JSON.stringify(stateDir)}}},
      on(n,f){this[n]=f},registerCommand(){},registerGatewayMethod(){},registerService(){}};
    p.register(api); api.before_tool_call({toolName:'read',params:{path:'x'}},{agentId:'main',sessionKey:'agent:main:main'});`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const after = auditVerifyDir(path.join(stateDir, 'plugins', 'openclaw-governance', 'governance', 'audit'));
  assert.equal(after.valid, true);
  assert.equal(after.lastCheckpoint.size, after.records);
});

test('a second process on the same state directory (a CLI run beside a gateway) writes into the same chain', async () => {
  // Before, the second process found writer.lock held for the gateway's lifetime and wrote no
  // records at all. Both now append to one chain that verifies with the one pinned key.
  const stateDir = tempDir();
  const gateway = new GovernanceEngine({ audit: { flushIntervalMs: 5 } }, { stateDir });
  const evalIn = (e, cmd) => e.evaluateSync({ hook: 'before_tool_call', agentId: 'main', sessionKey: 'agent:main:main', toolName: 'exec', params: { command: cmd } });
  evalIn(gateway, 'gateway-0');
  const script = `const { GovernanceEngine } = require(${JSON.stringify(path.join(here, '..', 'index.js'))});
    const e = new GovernanceEngine({ audit: { flushIntervalMs: 5 } }, { stateDir: ${JSON.stringify(stateDir)}, strict: false });
    if (!e.getStatus().audit.enabled) { console.error('audit off in the second process'); process.exit(3); }
    for (let i = 0; i < 50; i++) e.evaluateSync({ hook: 'before_tool_call', agentId: 'main', sessionKey: 'agent:main:cli', toolName: 'exec', params: { command: 'cli-' + i } });
    e.close();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  for (let i = 1; i <= 50; i++) {
    evalIn(gateway, `gateway-${i}`);
    if (i % 10 === 0) await new Promise((r) => setTimeout(r, 5));
  }
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  gateway.close();
  const audit = path.join(stateDir, 'governance', 'audit');
  const key = auditPublicKey(path.join(stateDir, 'governance', 'keys', 'audit-signing.key'));
  const report = auditVerifyDir(audit, key);
  assert.equal(report.valid, true, JSON.stringify(report.problems));
  const reader = new GovernanceEngine({ audit: { verifyOnStartup: false } }, { stateDir });
  const commands = reader.auditQuery({ hook: 'before_tool_call', limit: 1000 }).map((r) => r.context.toolParams.command);
  reader.close();
  assert.equal(commands.filter((c) => c.startsWith('cli-')).length, 50, 'every record of the second process');
  assert.equal(commands.filter((c) => c.startsWith('gateway-')).length, 51, 'every record of the first');
});
