'use strict';
// openclaw-governance audit …: verify, query, export, prove and print the public key of an audit
// directory, for operators and auditors; and a witness that cosigns its checkpoints. Everything
// reads files; nothing here writes the log (a witness appends only to `cosignatures`).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const native = require('../index.js');
const { UsageError, parseOptions, oneOf } = require('./usage.js');

const USAGE = `Usage:
  openclaw-governance audit verify [--dir D] [--pubkey KEY] [--allow-tail] [--since NOTE] [--witness-pubkey W]…
                                                             exit 0 valid, 1 with the first bad seq, file and reason
  openclaw-governance audit checkpoint [--dir D]               the newest signed checkpoint note (keep it for --since)
  openclaw-governance audit consistency OLD NEW [--dir D] [--pubkey KEY]
                                                             RFC 9162 consistency proof between two saved notes
  openclaw-governance audit query  [--dir D] [filters] [--table]
  openclaw-governance audit export [--dir D] [filters] --format json|csv [--out FILE]
  openclaw-governance audit prove SEQ [--dir D]                 record + Merkle inclusion proof + signed checkpoint
  openclaw-governance audit pubkey [--dir D | --key-file F]     the checkpoint key to pin
  openclaw-governance audit witness --key WF [--dir D] [--pubkey KEY] [--name NAME]
                                                             cosign the checkpoints that extend what this witness
                                                             cosigned before; exit 1 when it refuses

Filters: --agent ID --session KEY --from TIME --to TIME --verdict V --policy ID --rule ID
         --risk low|medium|high|critical --hook NAME --category C --limit N
         (an unknown --verdict, --risk, --hook or --category value is an error that lists the accepted ones)
D is the audit directory or the plugin's state directory (default: $OPENCLAW_STATE_DIR or ~/.openclaw,
then plugins/openclaw-governance/governance/audit). KEY is <name>+<hash>+<base64> as printed by pubkey.
verify fails when no checkpoint exists or records follow the newest one (they could have been replaced);
--allow-tail accepts a live log's tail and reports how many records it holds. NOTE, OLD and NEW are files
holding one signed checkpoint note (audit checkpoint > saved.note): --since proves the log extends NOTE.
Witnesses: WF is the witness's private key file (created, mode 0600, on first use, named NAME) with its
state beside it (WF.state.json); the first run pins KEY, the log's public key. D needs only the
checkpoints file (a copy will do); cosignatures are appended to D/cosignatures (C2SP tlog-cosignature).
W is a witness's public key as audit witness prints it; verify --witness-pubkey (repeatable) requires
each W's cosignature on a checkpoint of this log and fails on records after what they all cosigned
(--allow-tail counts them instead).`;

const FILTERS = ['agent', 'session', 'from', 'to', 'verdict', 'policy', 'rule', 'risk', 'hook', 'category', 'limit'];

/**
 * The values the core writes for the enumerated filters (src/audit/record.rs `AuditVerdict`,
 * src/risk.rs `RiskLevel::NAMES`, src/output/claims.rs `ClaimCategory::NAMES`, and the hooks that
 * name records: src/context.rs `Hook::NAMES`, the shim's output hooks and the engine's own events).
 * A test compares them with the Rust sources. The core compares filters for equality only, so
 * anything else would match nothing and look like an empty trail.
 */
const FILTER_VALUES = {
  verdict: ['allow', 'deny', 'escalate', 'escalate_approved', 'escalate_denied', 'escalate_timeout', 'escalate_unavailable',
    'error_fallback', 'governance.chain.break', 'governance.chain.torn', 'governance.retention', 'governance.trust.change',
    'governance.config.change', 'governance.llm.call', 'output_pass', 'output_flag', 'output_block'],
  risk: ['low', 'medium', 'high', 'critical'],
  hook: ['before_tool_call', 'message_sending', 'before_agent_start', 'before_prompt_build', 'session_start',
    'message_received', 'before_message_write', 'llm_output', 'reply_payload_sending', 'validate_output', 'trust', 'audit', 'config'],
  category: ['system_state', 'entity_name', 'existence', 'operational_status', 'capability', 'self_referential', 'quantity'],
};
// A hook the engine does not know is recorded as `unknown:<name>` (src/engine/evidence.rs).
const UNKNOWN_HOOK = /^unknown:\S+$/;

const OPTIONS = {
  verify: { values: ['dir', 'pubkey', 'since', 'witness-pubkey'], flags: ['allow-tail'], repeat: ['witness-pubkey'] },
  checkpoint: { values: ['dir'] },
  consistency: { values: ['dir', 'pubkey'] },
  query: { values: ['dir', ...FILTERS], flags: ['table'] },
  export: { values: ['dir', ...FILTERS, 'format', 'out'] },
  prove: { values: ['dir'] },
  pubkey: { values: ['dir', 'key-file'] },
  witness: { values: ['dir', 'key', 'pubkey', 'name'] },
};

function filterOf(options) {
  const filter = {};
  for (const key of FILTERS) {
    const value = options[key];
    if (value === undefined) continue;
    if (key === 'limit') {
      if (!/^\d+$/.test(value)) throw new UsageError(`--limit: "${value}" is not a whole number`);
      filter.limit = Number(value);
    } else if (key === 'hook' && UNKNOWN_HOOK.test(value)) {
      filter.hook = value;
    } else {
      filter[key] = FILTER_VALUES[key] ? oneOf(key, value, FILTER_VALUES[key]) : value;
    }
  }
  return filter;
}

function parse(sub, argv) {
  const { args, options, help } = parseOptions(argv, { command: `audit ${sub}`, ...OPTIONS[sub] });
  return { ...options, args, help, filter: filterOf(options) };
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

/** The pinned key, else the one beside the log (said on stderr: that check is not independent). */
function keyOf(opts, dir) {
  if (opts.pubkey) return opts.pubkey;
  if (!fs.existsSync(keyFileOf(dir))) return undefined;
  console.error('note: checking signatures with the key found beside the log; pin it with --pubkey for an independent check');
  return native.auditPublicKey(keyFileOf(dir));
}

function readNote(file, what) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${what}: cannot read ${file} (${e.code || e.message})`);
  }
}

const SINCE = {
  records: 'its root recomputed from the records',
  proofs: 'the signed consistency proofs from it to the newest checkpoint (retention removed its records)',
  none: 'NOT shown',
};

function verify(opts) {
  const dir = auditDir(opts.dir);
  const key = keyOf(opts, dir);
  const since = opts.since === undefined ? undefined : readNote(opts.since, '--since');
  const witnesses = opts['witness-pubkey'];
  const r = native.auditVerifyDir(dir, key, { allowTail: Boolean(opts['allow-tail']), since, witnesses });
  const cp = r.lastCheckpoint;
  console.log(`${r.valid ? 'VALID' : 'INVALID'}: ${dir}`);
  console.log(`records ${r.firstSeq}..${r.firstSeq + r.records - 1} (${r.records}) in ${r.files} file(s); head ${r.headHash}`);
  console.log(`checkpoints ${r.checkpoints}${cp ? `, last at size ${cp.size} (${new Date(cp.timestamp).toISOString()})` : ''}; signatures ${r.signaturesChecked ? 'checked' : 'NOT checked (no --pubkey)'}`);
  if (r.uncovered) console.log(`records after the newest checkpoint, vouched for by no signature: ${r.uncovered}${opts['allow-tail'] ? ' (accepted: --allow-tail)' : ''}`);
  if (r.since) console.log(`extends the saved checkpoint of size ${r.since.size}: ${SINCE[r.since.provenBy]}`);
  if (r.witnessed) printWitnessed(r.witnessed, opts['allow-tail']);
  if (r.retention) console.log(`records before ${r.firstSeq} removed by retention, announced at seq ${r.retention.seq} (retentionDays ${r.retention.details.retentionDays})`);
  if (r.tornLinesRecovered) console.log(`torn lines recovered at start: ${r.tornLinesRecovered}`);
  if (r.recordedBreaks.length) console.log(`breaks recorded by the writer: ${r.recordedBreaks.length}`);
  for (const p of r.problems.slice(0, 20)) {
    console.log(`  ${p.seq !== undefined ? `seq ${p.seq}` : '-'}  ${p.file || ''}${p.line ? `:${p.line}` : ''}  ${p.reason}`);
  }
  if (r.problems.length > 20) console.log(`  … ${r.problems.length - 20} more`);
  return r.valid ? 0 : 1;
}

function printWitnessed(w, allowTail) {
  for (const c of w.witnesses) {
    console.log(`witness ${c.name}: ${c.cosigned ? `cosigned up to size ${c.cosigned.size} (${new Date(c.cosigned.time * 1000).toISOString()})` : 'cosigned no checkpoint of this log'}`);
  }
  if (w.uncovered) console.log(`records after what every witness cosigned (size ${w.covered}): ${w.uncovered}${allowTail ? ' (accepted: --allow-tail)' : ''}`);
}

/** Exit 0 when it cosigned (or nothing was new), 1 when it refused the log or could not run. */
function witness(opts) {
  if (!opts.key) throw new UsageError('witness needs --key FILE (the witness\'s private key; created on first use)');
  const dir = auditDir(opts.dir);
  let r;
  try {
    r = native.auditWitnessDir(dir, opts.key, { publicKey: opts.pubkey, name: opts.name });
  } catch (e) {
    if (e.code !== 'GOVERNANCE_WITNESS_REFUSED') throw e;
    console.log(`REFUSED: ${dir}`);
    // The message quotes the log's origin, which whoever holds the log key chose.
    console.log(`  ${escapeCell(e.message)}`);
    console.log(`witness key: ${native.auditWitnessPublicKey(opts.key)}`);
    return 1;
  }
  if (r.cosigned.length) console.log(`COSIGNED ${r.cosigned.length} checkpoint(s) of ${escapeCell(r.origin)}: sizes ${r.cosigned.join(', ')}`);
  else if (r.checkpoints === 0) console.log(`nothing to cosign: ${dir} has no checkpoint yet`);
  else console.log(`nothing new: the newest checkpoint (size ${r.size}) was cosigned before`);
  if (r.firstRun && r.cosigned.length) console.log('first run: the log key is pinned and the first checkpoint trusted; every later one must extend it');
  if (r.skipped.length) console.log(`not cosigned (no proof from the newest tree accepted before them): sizes ${r.skipped.join(', ')}`);
  console.log(`witness key: ${r.witness}`);
  return 0;
}

// Everything in a cell is shown, but never acted on by the terminal: record text can come from an
// agent (a reason quoting its command, a tool name), and a raw newline would forge a second row,
// an escape sequence could recolour or hide one. Bidi controls could reorder what is shown.
const UNSAFE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeCell = (text) => String(text ?? '').replace(UNSAFE, (c) => ESCAPES[c] ??
  (c.codePointAt(0) < 0x100 ? `\\x${c.codePointAt(0).toString(16).padStart(2, '0')}` : `\\u{${c.codePointAt(0).toString(16)}}`));

/** At most `max` characters (code points, so no half emoji); a cut says how much is missing. */
function cut(text, max) {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const marker = (n) => `…(+${n} chars)`;
  let keep = max - marker(chars.length).length;
  while (keep > 0 && keep + marker(chars.length - keep).length > max) keep--;
  return chars.slice(0, Math.max(keep, 0)).join('') + marker(chars.length - Math.max(keep, 0));
}

function reasonOf(r) {
  if (r.blockReason) return r.blockReason;
  if (r.error) return r.error;
  const d = r.details;
  if (r.verdict === 'governance.trust.change' && d) return `${d.change}: ${d.from?.tier} → ${d.to?.tier} (by ${d.by})`;
  const v = r.context?.outputValidation?.violations?.[0];
  return v ? v.reason : '';
}

const COLUMNS = [
  // [header, width cap, value]; the last column is not padded.
  ['seq', 8, (r) => String(r.seq)],
  ['time', 24, (r) => r.timestampIso],
  ['verdict', 24, (r) => r.verdict],
  ['agent', 16, (r) => r.context?.agentId || '-'],
  ['action', 24, (r) => r.context?.toolName || r.context?.hook || '-'],
  ['rule', 40, (r) => (r.policyId ? `${r.policyId}/${r.ruleId}` : r.ruleId || '-')],
  ['risk', 8, (r) => r.risk?.level || '-'],
  ['reason', 100, reasonOf],
];

/** One line per record under a header, columns aligned; cells escaped and cut to their cap. */
function table(records) {
  const rows = records.map((r) => COLUMNS.map(([, cap, value]) => cut(escapeCell(value(r)), cap)));
  const widths = COLUMNS.map(([head], c) => Math.max(head.length, ...rows.map((row) => Array.from(row[c]).length)));
  const pad = (cell, c) => (c === 0 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]));
  const line = (cells) => cells.map((cell, c) => (c === cells.length - 1 ? cell : pad(cell, c))).join('  ').trimEnd();
  return [line(COLUMNS.map(([head]) => head)), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function query(opts) {
  const records = native.auditQueryDir(auditDir(opts.dir), opts.filter);
  if (opts.table) console.log(table(records));
  else if (records.length) console.log(records.map((r) => JSON.stringify(r)).join('\n'));
  return 0;
}

function exportLog(opts) {
  if (opts.format === undefined) throw new UsageError('export needs --format json|csv');
  oneOf('format', opts.format, ['json', 'csv']);
  const text = native.auditExportDir(auditDir(opts.dir), opts.filter, opts.format);
  if (opts.out) fs.writeFileSync(opts.out, text);
  else process.stdout.write(text);
  return 0;
}

function prove(opts) {
  const seq = Number(opts.args[0]);
  if (!/^\d+$/.test(opts.args[0] ?? '')) throw new UsageError('prove needs a record number (seq)');
  console.log(JSON.stringify(native.auditProveDir(auditDir(opts.dir), seq), null, 2));
  return 0;
}

function checkpoint(opts) {
  const note = native.auditNewestCheckpoint(auditDir(opts.dir));
  if (!note) {
    console.error('no checkpoint has been signed yet');
    return 1;
  }
  process.stdout.write(note);
  return 0;
}

function consistency(opts) {
  const [oldFile, newFile] = opts.args;
  if (!oldFile || !newFile) throw new UsageError('consistency needs two files, each holding one signed checkpoint note (OLD NEW)');
  const dir = auditDir(opts.dir);
  const proof = native.auditConsistencyDir(dir, readNote(oldFile, 'OLD'), readNote(newFile, 'NEW'), keyOf(opts, dir));
  console.log(JSON.stringify(proof, null, 2));
  return 0;
}

function pubkey(opts) {
  console.log(native.auditPublicKey(opts['key-file'] || keyFileOf(auditDir(opts.dir))));
  return 0;
}

function auditCommand(argv) {
  const [sub, ...rest] = argv;
  const commands = { verify, checkpoint, consistency, query, export: exportLog, prove, pubkey, witness };
  if (!sub || sub === 'help' || sub === '--help' || sub === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (!Object.hasOwn(commands, sub)) throw new UsageError(`unknown audit command "${sub}" (${Object.keys(commands).join(', ')})`);
  const opts = parse(sub, rest);
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const positional = { prove: 1, consistency: 2 }[sub] ?? 0;
  if (opts.args.length > positional) throw new UsageError(`audit ${sub}: unexpected argument "${opts.args.at(-1)}"`);
  return commands[sub](opts);
}

module.exports = { auditCommand, USAGE, FILTER_VALUES };
