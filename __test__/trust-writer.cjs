'use strict';
// Child process for the trust crash test: changes trust and forces trust.json writes in a tight
// loop until the parent kills it with SIGKILL.
const { GovernanceEngine } = require('../index.js');

const engine = new GovernanceEngine({ trust: { persistIntervalSeconds: 1 }, audit: { enabled: false } }, { stateDir: process.argv[2] });
process.stdout.write('READY\n');
for (let i = 0; ; i++) {
  engine.setTrust(`agent-${i % 50}`, 'set', String(i % 100), 'crash-test');
  engine.flush(); // each flush writes trust.json: temp file, fsync, rename
}
