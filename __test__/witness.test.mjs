// Witnesses from the outside: `audit witness` cosigning a real log, refusing one whose
// checkpoints no longer extend what it cosigned, and `audit verify --witness-pubkey` requiring
// its cosignatures. Exit codes are what cron jobs and auditors' scripts act on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { GovernanceEngine, auditWitnessDir } = require('../index.js');
const cli = path.join(here, '..', 'bin', 'openclaw-governance.js');
const run = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
const out = (r) => r.stdout + r.stderr;

function sampleLog() {
  const dir = tempDir();
  const r = run('check', '--state-dir', dir);
  assert.equal(r.status, 0, r.stderr);
  return dir;
}

const vkeyOf = (stdout) => stdout.match(/^witness key: (\S+)$/m)?.[1];

test('audit witness cosigns, verify --witness-pubkey requires it, and a shortened history is refused', () => {
  const dir = sampleLog();
  const logKey = run('audit', 'pubkey', '--dir', dir).stdout.trim();
  const key = path.join(tempDir(), 'w.key');

  const noKey = run('audit', 'witness', '--dir', dir, '--key', key);
  assert.equal(noKey.status, 1, out(noKey));
  assert.match(noKey.stderr, /first run needs the log's public key/);
  assert.equal(run('audit', 'witness', '--dir', dir).status, 2, '--key is required: a usage error');

  const first = run('audit', 'witness', '--dir', dir, '--key', key, '--pubkey', logKey, '--name', 'witness.test/w');
  assert.equal(first.status, 0, out(first));
  assert.match(first.stdout, /^COSIGNED \d+ checkpoint\(s\) of openclaw-governance\/[0-9a-f]{16}: sizes /);
  const w = vkeyOf(first.stdout);
  assert.match(w, /^witness\.test\/w\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
  assert.equal(fs.statSync(key).mode & 0o777, 0o600);

  const ok = run('audit', 'verify', '--dir', dir, '--pubkey', logKey, '--witness-pubkey', w);
  assert.equal(ok.status, 0, out(ok));
  assert.match(ok.stdout, /^witness witness\.test\/w: cosigned up to size \d+ /m);

  const again = run('audit', 'witness', '--dir', dir, '--key', key);
  assert.equal(again.status, 0, out(again));
  assert.match(again.stdout, /^nothing new: the newest checkpoint \(size \d+\) was cosigned before/);

  // A second witness, which cosigned another log only: every named witness is required.
  const elsewhere = sampleLog();
  const otherKey = run('audit', 'pubkey', '--dir', elsewhere).stdout.trim();
  const other = auditWitnessDir(path.join(elsewhere, 'governance', 'audit'), path.join(tempDir(), 'o.key'), { publicKey: otherKey }).witness;
  const both = run('audit', 'verify', '--dir', dir, '--pubkey', logKey, '--witness-pubkey', w, '--witness-pubkey', other);
  assert.equal(both.status, 1, out(both));
  assert.match(both.stdout, /cosigned no checkpoint of this log/);

  // Records the witness has not seen yet: a failure, or counted with --allow-tail.
  assert.equal(run('check', '--state-dir', dir).status, 0);
  const tail = run('audit', 'verify', '--dir', dir, '--pubkey', logKey, '--witness-pubkey', w);
  assert.equal(tail.status, 1, out(tail));
  assert.match(tail.stdout, /records after size \d+ are cosigned by no named witness/);
  const allowed = run('audit', 'verify', '--dir', dir, '--pubkey', logKey, '--witness-pubkey', w, '--allow-tail');
  assert.equal(allowed.status, 0, out(allowed));
  assert.match(allowed.stdout, /records after what every witness cosigned \(size \d+\): \d+ \(accepted: --allow-tail\)/);

  const next = run('audit', 'witness', '--dir', dir, '--key', key);
  assert.equal(next.status, 0, out(next));
  assert.match(next.stdout, /^COSIGNED 1 checkpoint\(s\)/);
  assert.equal(run('audit', 'verify', '--dir', dir, '--pubkey', logKey, '--witness-pubkey', w).status, 0);

  // Only the first checkpoint left: the newest no longer extends what the witness cosigned.
  const file = path.join(dir, 'governance', 'audit', 'checkpoints');
  const cosignatures = path.join(dir, 'governance', 'audit', 'cosignatures');
  const before = fs.readFileSync(cosignatures, 'utf8');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split(/(?<=\n\n\u2014 [^\n]+\n\n)/)[0]);
  const refused = run('audit', 'witness', '--dir', dir, '--key', key);
  assert.equal(refused.status, 1, out(refused));
  assert.match(refused.stdout, /^REFUSED: /);
  assert.match(refused.stdout, /refused: checkpoint 1 \(size \d+\), the newest, is not shown to extend/);
  assert.equal(vkeyOf(refused.stdout), w);
  assert.equal(fs.readFileSync(cosignatures, 'utf8'), before, 'nothing cosigned');
});

test('a refusal and a witness that cannot run throw with distinct codes; status shows configured witnesses', () => {
  const dir = sampleLog();
  const audit = path.join(dir, 'governance', 'audit');
  const logKey = run('audit', 'pubkey', '--dir', dir).stdout.trim();
  const key = path.join(tempDir(), 'w.key');
  const report = auditWitnessDir(audit, key, { publicKey: logKey });
  assert.ok(report.firstRun && report.cosigned.length > 0, JSON.stringify(report));
  assert.throws(() => auditWitnessDir(audit, key, { publicKey: run('audit', 'pubkey', '--dir', sampleLog()).stdout.trim() }),
    (e) => e.code === 'GOVERNANCE_WITNESS_REFUSED' && /follows the log key/.test(e.message));
  assert.throws(() => auditWitnessDir(audit, path.join(tempDir(), 'x.key')),
    (e) => e.code === 'GOVERNANCE_WITNESS_FAILED');

  const engine = new GovernanceEngine({ audit: { witnesses: [report.witness] } }, { stateDir: dir });
  try {
    const [shown] = engine.getStatus().audit.witnesses;
    assert.equal(shown.key, report.witness);
    assert.equal(shown.cosigned.size, report.size);
  } finally {
    engine.close();
  }
});
