'use strict';
// openclaw-governance audit …: verify, query, export, prove and print the public key of an audit
// directory, for operators and auditors. Everything reads files; nothing here writes the log.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const native = require('../index.js');

const USAGE = `Usage:
  openclaw-governance audit verify [--dir D] [--pubkey KEY]   exit 0 valid, 1 with the first bad seq, file and reason
  openclaw-governance audit query  [--dir D] [filters] [--table]
  openclaw-governance audit export [--dir D] [filters] --format json|csv [--out FILE]
  openclaw-governance audit prove SEQ [--dir D]                 record + Merkle inclusion proof + signed checkpoint
  openclaw-governance audit pubkey [--dir D | --key-file F]     the checkpoint key to pin

Filters: --agent ID --session KEY --from TIME --to TIME --verdict V --policy ID --rule ID
         --risk low|medium|high|critical --hook NAME --category C --limit N
D is the audit directory or the plugin's state directory (default: $OPENCLAW_STATE_DIR or ~/.openclaw,
then plugins/openclaw-governance/governance/audit). KEY is <name>+<hash>+<base64> as printed by pubkey.`;

const FILTERS = ['agent', 'session', 'from', 'to', 'verdict', 'policy', 'rule', 'risk', 'hook', 'category', 'limit'];

function parse(argv) {
  const opts = { args: [], filter: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) { opts.args.push(a); continue; }
    const key = a.slice(2);
    if (key === 'table' || key === 'help') { opts[key] = true; continue; }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${a} needs a value`);
    if (FILTERS.includes(key)) opts.filter[key] = key === 'limit' ? Number(value) : value;
    else if (['dir', 'pubkey', 'format', 'out', 'key-file'].includes(key)) opts[key] = value;
    else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

function auditDir(dir) {
  if (dir) {
    const nested = path.join(dir, 'governance', 'audit');
    return fs.existsSync(nested) ? nested : dir;
  }
  const state = process.env.OPENCLAW_STATE_DIR || path.join(os.homedir(), '.openclaw');
  return path.join(state, 'plugins', 'openclaw-governance', 'governance', 'audit');
}

const keyFileOf = (dir) => path.join(dir, '..', 'keys', 'audit-signing.key');

function verify(opts) {
  const dir = auditDir(opts.dir);
  let key = opts.pubkey;
  if (!key && fs.existsSync(keyFileOf(dir))) {
    key = native.auditPublicKey(keyFileOf(dir));
    console.error('note: checking signatures with the key found beside the log; pin it with --pubkey for an independent check');
  }
  const r = native.auditVerifyDir(dir, key);
  const cp = r.lastCheckpoint;
  console.log(`${r.valid ? 'VALID' : 'INVALID'}: ${dir}`);
  console.log(`records ${r.firstSeq}..${r.firstSeq + r.records - 1} (${r.records}) in ${r.files} file(s); head ${r.headHash}`);
  console.log(`checkpoints ${r.checkpoints}${cp ? `, last at size ${cp.size} (${new Date(cp.timestamp).toISOString()})` : ''}; signatures ${r.signaturesChecked ? 'checked' : 'NOT checked (no --pubkey)'}`);
  if (r.tornLinesRecovered) console.log(`torn lines recovered at start: ${r.tornLinesRecovered}`);
  if (r.recordedBreaks.length) console.log(`breaks recorded by the writer: ${r.recordedBreaks.length}`);
  for (const p of r.problems.slice(0, 20)) {
    console.log(`  ${p.seq !== undefined ? `seq ${p.seq}` : '-'}  ${p.file || ''}${p.line ? `:${p.line}` : ''}  ${p.reason}`);
  }
  if (r.problems.length > 20) console.log(`  … ${r.problems.length - 20} more`);
  return r.valid ? 0 : 1;
}

function table(records) {
  return records.map((r) => [
    String(r.seq).padStart(6), r.timestampIso, (r.verdict || '').padEnd(14), (r.context?.agentId || '').padEnd(10),
    (r.context?.toolName || r.context?.hook || '').padEnd(12), r.ruleId || '-', r.blockReason || '',
  ].join('  ')).join('\n');
}

function query(opts) {
  const records = native.auditQueryDir(auditDir(opts.dir), opts.filter);
  console.log(opts.table ? table(records) : records.map((r) => JSON.stringify(r)).join('\n'));
  return 0;
}

function exportLog(opts) {
  if (!['json', 'csv'].includes(opts.format)) throw new Error('export needs --format json|csv');
  const text = native.auditExportDir(auditDir(opts.dir), opts.filter, opts.format);
  if (opts.out) fs.writeFileSync(opts.out, text);
  else process.stdout.write(text);
  return 0;
}

function prove(opts) {
  const seq = Number(opts.args[0]);
  if (!Number.isInteger(seq) || seq < 0) throw new Error('prove needs a record number (seq)');
  console.log(JSON.stringify(native.auditProveDir(auditDir(opts.dir), seq), null, 2));
  return 0;
}

function pubkey(opts) {
  console.log(native.auditPublicKey(opts['key-file'] || keyFileOf(auditDir(opts.dir))));
  return 0;
}

function auditCommand(argv) {
  const [sub, ...rest] = argv;
  const opts = parse(rest);
  const commands = { verify, query, export: exportLog, prove, pubkey };
  if (!sub || opts.help || !commands[sub]) {
    console.log(USAGE);
    return sub && !opts.help && !commands[sub] ? 2 : 0;
  }
  return commands[sub](opts);
}

module.exports = { auditCommand, USAGE };
