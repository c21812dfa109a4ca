'use strict';
// Command-line parsing shared by the CLI's commands. A mistyped option or value is a usage error
// (exit 2) that names what was wrong: a typo must never turn into a silently empty answer, since
// "no records" from a misspelled filter reads like "nothing happened".

class UsageError extends Error {
  constructor(message) {
    super(message);
    this.exitCode = 2;
  }
}

/**
 * `--name value`, `--name=value` and bare flags, checked against what `command` accepts.
 * A value that looks like an option (`--agent --dir`) counts as missing rather than as the value.
 * Options in `repeat` may be given more than once and collect into a list; any other given twice
 * keeps the last.
 */
function parseOptions(argv, { command, values = [], flags = [], repeat = [] }) {
  const out = { args: [], options: {}, help: false };
  const known = [...values.map((v) => `--${v}`), ...flags.map((f) => `--${f}`)];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') { out.help = true; continue; }
    if (!a.startsWith('-') || a === '-') { out.args.push(a); continue; }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (!a.startsWith('--') || (!values.includes(name) && !flags.includes(name))) {
      throw new UsageError(`unknown option ${eq < 0 ? a : a.slice(0, eq)} for "${command}" (options: ${known.join(' ') || 'none'})`);
    }
    if (flags.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.options[name] = true;
      continue;
    }
    const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    out.options[name] = repeat.includes(name) ? [...(out.options[name] || []), value] : value;
  }
  return out;
}

/** `value` must be one of `allowed`; the error lists them and points at a case slip. */
function oneOf(flag, value, allowed) {
  if (allowed.includes(value)) return value;
  const near = allowed.find((a) => a.toLowerCase() === String(value).toLowerCase());
  throw new UsageError(`--${flag}: unknown value "${value}"${near ? ` (did you mean "${near}"?)` : ''}; allowed: ${allowed.join(', ')}`);
}

module.exports = { UsageError, parseOptions, oneOf };
