'use strict';
// Child process for the crash test: writes a burst of audit records through the engine and prints
// "ACK <marker>" after each block returns (a block's record is durable before evaluate returns).
// The parent kills it with SIGKILL in the middle of the burst.
const { GovernanceEngine } = require('../index.js');

const stateDir = process.argv[2];
const engine = new GovernanceEngine({
  audit: { flushIntervalMs: 50, checkpoint: { everyRecords: 50 } },
  policies: [{ id: 'p', rules: [{ id: 'rm', conditions: [{ type: 'tool', params: { command: { startsWith: 'rm' } } }], effect: { action: 'deny', reason: 'no' } }] }],
}, { stateDir });
process.stdout.write('READY\n');
for (let i = 0; ; i++) {
  const block = i % 10 === 0;
  const marker = `m-${i}`;
  const v = engine.evaluateSync({ hook: 'before_tool_call', agentId: 'main', sessionKey: 'agent:main:main', toolName: 'exec',
    params: { command: `${block ? 'rm -rf' : 'ls'} ${marker} ${'x'.repeat(i % 300)}` } });
  if (block && v.action === 'deny') process.stdout.write(`ACK ${marker}\n`);
}
