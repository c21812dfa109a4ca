// The auditor's commands as an auditor runs them: a saved checkpoint, a live log's tail, the
// consistency proof between two saved notes (issue 15).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');
const cli = path.join(root, 'bin', 'openclaw-governance.js');
const run = (...args) => spawnSync(process.execPath, [cli, 'audit', ...args], { encoding: 'utf8' });
const exec = (engine, cmd) => engine.evaluateSync({ hook: 'before_tool_call', agentId: 'main', sessionKey: 'agent:main:main', toolName: 'exec', params: { command: cmd } });

test('verify --since a saved note, --allow-tail on a live log, and consistency between two notes', () => {
  const stateDir = tempDir();
  const first = new GovernanceEngine({}, { stateDir });
  for (let i = 0; i < 5; i++) exec(first, `ls ${i}`);
  first.close();
  const pubkey = run('pubkey', '--dir', stateDir).stdout.trim();
  const saved = path.join(stateDir, 'saved.note');
  const cp = run('checkpoint', '--dir', stateDir);
  assert.equal(cp.status, 0, cp.stderr);
  assert.match(cp.stdout, /\n5\n/, 'the note over all five records');
  fs.writeFileSync(saved, cp.stdout);

  // A gateway still running: its newest records have no checkpoint yet.
  const live = new GovernanceEngine({ audit: { flushIntervalMs: 1 } }, { stateDir });
  for (let i = 0; i < 3; i++) exec(live, `cat ${i}`);
  live.flush();
  const strict = run('verify', '--dir', stateDir, '--pubkey', pubkey);
  assert.equal(strict.status, 1, strict.stdout);
  assert.match(strict.stdout, /3 records after the last checkpoint \(size 5\) are covered by no signature/);
  const tail = run('verify', '--dir', stateDir, '--pubkey', pubkey, '--allow-tail');
  assert.equal(tail.status, 0, tail.stdout);
  assert.match(tail.stdout, /vouched for by no signature: 3 \(accepted: --allow-tail\)/);
  live.close();

  const since = run('verify', '--dir', stateDir, '--pubkey', pubkey, '--since', saved);
  assert.equal(since.status, 0, since.stdout);
  assert.match(since.stdout, /^VALID/);
  assert.match(since.stdout, /extends the saved checkpoint of size 5: its root recomputed from the records/);
  const newer = path.join(stateDir, 'newer.note');
  fs.writeFileSync(newer, run('checkpoint', '--dir', stateDir).stdout);
  const proof = run('consistency', saved, newer, '--dir', stateDir, '--pubkey', pubkey);
  assert.equal(proof.status, 0, proof.stderr);
  const p = JSON.parse(proof.stdout);
  assert.equal(p.old.size, 5);
  assert.equal(p.new.size, 8);
  assert.ok(p.consistencyProof.length > 0);
  assert.equal(p.signaturesChecked, true);

  // The saved note altered by one digit no longer carries a valid signature.
  const forged = path.join(stateDir, 'forged.note');
  fs.writeFileSync(forged, fs.readFileSync(saved, 'utf8').replace('\n5\n', '\n4\n'));
  const bad = run('verify', '--dir', stateDir, '--pubkey', pubkey, '--since', forged);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /saved checkpoint.*does not verify/);
  const missing = run('verify', '--dir', stateDir, '--since', path.join(stateDir, 'nope.note'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--since: cannot read/);
  const usage = run('consistency', saved, '--dir', stateDir);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /consistency needs two files/);
});
