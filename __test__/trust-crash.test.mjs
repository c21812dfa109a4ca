// Killing the process while trust.json is being written leaves the previous file intact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { GovernanceEngine } = require('../index.js');

function killMidWrite(stateDir, afterMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'trust-writer.cjs'), stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), afterMs));
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited ${code}`))));
  });
}

test('SIGKILL during trust.json writes: the file on disk is always a whole store', async () => {
  const stateDir = tempDir();
  const file = path.join(stateDir, 'governance', 'trust.json');
  for (const afterMs of [40, 90, 150, 230, 310]) {
    await killMidWrite(stateDir, afterMs);
    const store = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(store.version, 1);
    assert.ok(Object.keys(store.agents).length > 0);
    // A fresh engine loads it without a load error and keeps every agent it holds.
    const e = new GovernanceEngine({ audit: { enabled: false } }, { stateDir });
    assert.equal(e.getStatus().trust.loadError, null);
    assert.equal(e.getStatus().trust.trackedAgents, Object.keys(store.agents).length);
    e.close();
  }
  const leftovers = fs.readdirSync(path.join(stateDir, 'governance')).filter((f) => f.includes('corrupt') || f.includes('rejected'));
  assert.deepEqual(leftovers, [], 'no run ever saw a torn trust.json');
});
