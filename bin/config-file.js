'use strict';
// The config `check` replays: a governance config, or the host's whole openclaw.json, from which
// the plugin's own entry is taken the way the host would hand it to the plugin.

const fs = require('node:fs');

const PLUGIN_ID = 'openclaw-governance';
const ENTRY = `plugins.entries["${PLUGIN_ID}"]`;
// Top-level keys of the host's config that a governance config never has.
const HOST_KEYS = ['plugins', 'agents', 'models', 'gateway', 'channels', 'session', 'commands'];

/**
 * The JSON5 the host accepts in openclaw.json, reduced to JSON: comments, trailing commas,
 * unquoted keys and single-quoted strings. Anything rarer (hex numbers, Infinity) stays and makes
 * JSON.parse fail, which is reported, not guessed at.
 */
function json5ToJson(text) {
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const [body, end] = readString(text, i);
      out += `"${body}"`;
      i = end;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new SyntaxError('unterminated /* comment');
      out += ' ';
      i = end + 2;
    } else if (c === '}' || c === ']') {
      // strings are emitted whole and comments dropped, so a comma ending `out` is a real one
      out = out.replace(/,\s*$/, '') + c;
      i++;
    } else if (/[A-Za-z_$]/.test(c)) {
      const word = /^[\w$]+/.exec(text.slice(i))[0];
      const after = text.slice(i + word.length).match(/^\s*/)[0].length + i + word.length;
      out += text[after] === ':' ? JSON.stringify(word) : word;
      i += word.length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** A JSON5 string starting at `start` as the body of a JSON string, and the index after it. */
function readString(text, start) {
  const quote = text[start];
  let body = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === quote) return [body, i + 1];
    if (c === '\n') break;
    if (c === '\\') {
      const next = text[++i];
      if (next === '\n') continue; // line continuation
      body += next === "'" ? "'" : `\\${next}`;
    } else {
      body += c === '"' ? '\\"' : c;
    }
  }
  throw new SyntaxError(`unterminated string at offset ${start}`);
}

function parseJson5(file, text) {
  try {
    return JSON.parse(text);
  } catch (strict) {
    try {
      return JSON.parse(json5ToJson(text));
    } catch {
      throw new Error(`${file}: ${strict.message} (for an openclaw.json the host reads but this does not, ` +
        `\`openclaw config get ${ENTRY.replace(/\["(.*)"\]/, '.$1')}.config --json > governance.json\` gives the plugin's config alone)`);
    }
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `{config, source, notes}`: the governance config in `file`, where it came from, and what an
 * operator should know about it (the plugin disabled, no config given). A host config without the
 * plugin's entry is an error: there is nothing to replay.
 */
function readGovernanceConfig(file) {
  const raw = parseJson5(file, fs.readFileSync(file, 'utf8'));
  if (!isObject(raw) || !HOST_KEYS.some((k) => k in raw)) return { config: raw, source: file, notes: [] };
  const plugins = isObject(raw.plugins) ? raw.plugins : {};
  const entry = isObject(plugins.entries) ? plugins.entries[PLUGIN_ID] : undefined;
  if (!isObject(entry)) {
    throw new Error(`${file} is an OpenClaw config with no ${ENTRY}: the plugin is not configured there ` +
      `(install it with \`openclaw plugins install\`, or pass the governance config itself with --config)`);
  }
  const notes = [];
  const off = (why) => notes.push(`${why}: the host does not load the plugin, so nothing in this session would be governed; replaying its config as if it were on`);
  if (plugins.enabled === false) off('plugins.enabled is false');
  if (entry.enabled === false) off(`${ENTRY}.enabled is false`);
  if (Array.isArray(plugins.deny) && plugins.deny.includes(PLUGIN_ID)) off(`plugins.deny names ${PLUGIN_ID}`);
  if (Array.isArray(plugins.allow) && plugins.allow.length && !plugins.allow.includes(PLUGIN_ID)) off(`plugins.allow does not name ${PLUGIN_ID}`);
  if (entry.config === undefined) notes.push(`${ENTRY} has no config: replaying the plugin's defaults`);
  return { config: entry.config ?? {}, source: `${file} → ${ENTRY}.config`, notes };
}

module.exports = { readGovernanceConfig, json5ToJson };
