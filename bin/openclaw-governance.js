#!/usr/bin/env node
'use strict';
// openclaw-governance check: replays a recorded agent session (JSONL lines of
// {at, hook, event, ctx}, the shapes the host's hooks deliver) through the same translation the
// plugin uses, and prints what governance decided for each action.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { GovernanceEngine } = require('../index.js');
const { translate } = require('../plugin.js');
const { UsageError, parseOptions } = require('./usage.js');
const { readGovernanceConfig } = require('./config-file.js');

const PKG = path.join(__dirname, '..');
const USAGE = `Usage:
  openclaw-governance check [session.jsonl] [--config governance.json|openclaw.json] [--state-dir DIR] [--json]
  openclaw-governance audit verify|query|export|prove|pubkey|witness …   (openclaw-governance audit --help)
  openclaw-governance provenance <sessionKey> [--format text|json|mermaid|dot] …   (openclaw-governance provenance --help)

Without arguments it replays the bundled example session against the bundled example config.
--config takes a governance config or the host's whole openclaw.json (then its
plugins.entries["openclaw-governance"].config). Without --state-dir the audit trail goes to a
temporary directory that is removed at the end.
Session lines: {"at": ISO time, "hook": "before_tool_call" | "message_sending" | "before_message_write",
                "event": {...}, "ctx": {...}} (the host's hook event and context).`;

function parseArgs(argv) {
  const { args, options, help } = parseOptions(argv, { command: 'check', values: ['config', 'state-dir'], flags: ['json'] });
  if (args.length > 1) throw new UsageError(`check takes one session file, got ${args.length}: ${args.join(' ')}`);
  return { session: args[0] || null, config: options.config || null, stateDir: options['state-dir'] || null, json: !!options.json, help };
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${err.message}`);
  }
}

function readSession(file) {
  return fs.readFileSync(file, 'utf8').split('\n').map((line, i) => [line.trim(), i + 1])
    .filter(([line]) => line && !line.startsWith('//'))
    .map(([line, n]) => {
      try { return JSON.parse(line); } catch (err) { throw new Error(`${file}:${n}: ${err.message}`); }
    });
}

function describe(req) {
  if (req.hook === 'message_sending') return `message → ${req.messageTo}: ${req.messageContent}`;
  const p = req.params || {};
  const detail = p.command ?? p.path ?? p.file_path ?? JSON.stringify(p);
  return `${req.toolName} ${detail}`;
}

function replay(engine, entries) {
  const rows = [];
  for (const e of entries) {
    const ctx = e.ctx || {};
    const event = e.event || {};
    if (e.hook === 'before_message_write') {
      const text = translate.textOf(event.message?.content);
      if (ctx.sessionKey && text) engine.observeMessage(ctx.sessionKey, text);
      continue;
    }
    const req = e.hook === 'message_sending' ? translate.messageRequest(event, ctx) : translate.toolRequest(event, ctx);
    if (e.at) req.timestamp = Date.parse(e.at);
    const v = engine.evaluateSync(req);
    rows.push({ at: e.at || '', agent: req.agentId || (req.sessionKey || '').split(':')[1] || '?', action: describe(req), verdict: v });
  }
  return rows;
}

const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function table(rows) {
  const head = ['#', 'time', 'agent', 'action', 'verdict', 'rule', 'reason', 'risk', 'µs'];
  const body = rows.map((r, i) => [
    String(i + 1),
    r.at.replace(/^\d{4}-\d\d-\d\dT/, '').replace(/(\.\d+)?([+-]\d\d:\d\d|Z)$/, ''),
    r.agent,
    clip(r.action, 34),
    r.verdict.action.toUpperCase(),
    r.verdict.policyId ? `${r.verdict.policyId}/${r.verdict.ruleId}` : r.verdict.ruleId || '-',
    clip(r.verdict.reason, 60),
    `${r.verdict.risk.level} ${Math.round(r.verdict.risk.score)}`,
    r.verdict.evaluationUs.toFixed(1),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => row[c].length)));
  const line = (cells) => cells.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/**
 * A state directory for one replay: the caller's, or a temporary one removed when the replay ends,
 * however it ends. `check` is synchronous, so a signal is handled once it returns: the handlers
 * turn SIGINT/SIGTERM/SIGHUP from "die now, leave the directory" into "finish, clean up, exit
 * 128+n". Only SIGKILL still leaves it behind.
 */
function stateDirFor(opts) {
  if (opts.stateDir) return { dir: opts.stateDir, temporary: false, release() {} };
  let dir = null;
  const release = () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      release();
      process.exit(128 + os.constants.signals[signal]);
    });
  }
  process.once('exit', release);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openclaw-governance-check-'));
  return { dir, temporary: true, release };
}

function check(opts) {
  const { config, source, notes } = opts.config
    ? readGovernanceConfig(opts.config)
    : { config: readJson(path.join(PKG, 'examples', 'governance.json')), source: path.join(PKG, 'examples', 'governance.json'), notes: [] };
  for (const note of notes) console.error(`note: ${note}`);
  if (opts.json && opts.config && source !== opts.config) console.error(`config: ${source}`);
  const sessionFile = opts.session || path.join(PKG, 'examples', 'session.jsonl');
  const entries = readSession(sessionFile);
  const state = stateDirFor(opts);
  let engine = null;
  try {
    engine = new GovernanceEngine(config, { stateDir: state.dir, strict: true });
    const rows = replay(engine, entries);
    engine.flush();
    const written = engine.getStatus().audit.written;
    const auditDir = engine.getStatus().audit.dir;
    engine.close();
    engine = null;
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(rows.map((r) => ({ at: r.at, agent: r.agent, action: r.action, ...r.verdict })), null, 2)}\n`);
      return;
    }
    const count = (a) => rows.filter((r) => r.verdict.action === a).length;
    console.log(`config:  ${source}\nsession: ${sessionFile}\n`);
    console.log(table(rows));
    console.log(`\n${rows.length} actions: ${count('allow') + count('audit')} allowed, ${count('deny')} denied, ${count('escalate')} need approval`);
    console.log(state.temporary
      ? `audit trail: ${written} record${written === 1 ? '' : 's'} in a temporary directory, removed (--state-dir DIR keeps it)`
      : `audit trail: ${auditDir}`);
  } finally {
    if (engine) engine.close();
    state.release();
  }
}

function main(argv) {
  const [command, ...rest] = argv;
  if (command === 'audit') return require('./audit.js').auditCommand(rest);
  if (command === 'provenance') return require('./provenance.js').provenanceCommand(rest);
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (command !== 'check') throw new UsageError(`unknown command "${command}" (check, audit, provenance; openclaw-governance --help)`);
  const opts = parseArgs(rest);
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  check(opts);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  console.error(`openclaw-governance: ${err.message}`);
  if (Array.isArray(err.details)) for (const d of err.details) console.error(`  ${d.path}: ${d.message}`);
  process.exitCode = err instanceof UsageError ? err.exitCode : 1;
}
