#!/usr/bin/env node
// Prints the Markdown configuration reference generated from openclaw.plugin.json's configSchema.
//
//   node scripts/config-reference.mjs                    print the reference
//   node scripts/config-reference.mjs --write README.md  replace the text between the markers
//   node scripts/config-reference.mjs --check README.md  exit 1 unless that text is current
//
// Markers: <!-- config-reference:start --> and <!-- config-reference:end -->. Nothing outside them is touched.

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const START = "<!-- config-reference:start -->";
const END = "<!-- config-reference:end -->";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const manifest = JSON.parse(readFileSync(path.join(ROOT, "openclaw.plugin.json"), "utf8"));
const schema = manifest.configSchema;
const defs = schema.definitions ?? {};

// ── Schema helpers ──

const defName = (s) => (s && typeof s.$ref === "string" ? s.$ref.replace(/^#\/definitions\//, "") : null);
const resolve = (s) => (defName(s) ? defs[defName(s)] : s);
const isObject = (s) => s && s.type === "object";
const hasProps = (s) => isObject(s) && s.properties && Object.keys(s.properties).length > 0;
/** Definitions shown by name (they have their own table) instead of spelled out. */
const NAMED = {
  policy: "policy",
  scope: "scope",
  rule: "rule",
  effect: "effect",
  condition: "condition",
  paramMatcher: "param matcher",
  timeWindow: "time window",
  trustTier: "trust tier",
  hook: "hook",
  riskLevel: "risk level",
};
/** The object branch of a `true | {settings}` switch. */
const settingsBranch = (s) => (s.anyOf ?? []).find(hasProps);
/** The key a dispatch union is chosen by (`type` for conditions, `action` for effects). */
const dispatchKey = (s) => (Array.isArray(s.allOf) && s.required?.length === 1 ? s.required[0] : null);
const variants = (s) => {
  const key = dispatchKey(s);
  return s.properties[key].enum.map((value) => {
    const branch = s.allOf.map((a) => a.anyOf?.[1]).find((b) => defs[defName(b)]?.properties?.[key]?.const === value);
    return { value, def: defs[defName(branch)] };
  });
};

const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (v) => "`" + (typeof v === "string" && v !== "" ? v : JSON.stringify(v)) + "`";
const range = (s) => {
  const lo = s.minimum;
  const hi = s.maximum;
  if (lo === undefined && hi === undefined) return "";
  if (hi === undefined) return ` ≥ ${lo}`;
  if (lo === undefined) return ` ≤ ${hi}`;
  return ` ${lo}–${hi}`;
};

function typeText(s) {
  const name = defName(s);
  if (name && NAMED[name]) return NAMED[name];
  if (name === "hhmm") return "`HH:MM`";
  if (name === "regex") return "regex";
  if (name) return typeText(defs[name]);
  if (s.const !== undefined) return code(s.const);
  if (s.enum) return s.enum.map((v) => code(v)).join(" | ");
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map((u) => (hasProps(u) ? "object" : typeText(u))).join(" or ");
  if (s.not && s.not.type === "null" && !s.type) return "any JSON value but null";
  switch (s.type) {
    case "array": {
      const item = s.items ? typeText(s.items) : "any";
      const min = s.minItems ? ` (at least ${s.minItems})` : "";
      return `list of ${/ or |\|/.test(item) ? `(${item})` : item}${min}`;
    }
    case "object":
      if (s.additionalProperties && typeof s.additionalProperties === "object") {
        return `map of ${typeText(s.additionalProperties)}`;
      }
      return "object";
    case "integer":
    case "number":
      return `${s.type}${range(s)}`;
    case "string":
      return s.maxLength !== undefined ? `string (≤ ${s.maxLength} chars)` : "string";
    case undefined:
      return "any";
    default:
      return s.type;
  }
}

const defaultText = (s) => (s.default === undefined ? "" : code(s.default));
const describe = (s, required) => {
  const r = resolve(s) ?? {};
  const text = s.description ?? r.description ?? "";
  return required ? `**Required.** ${text}` : text;
};

// ── Tables ──

function table(header, rows) {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");
}

/** Rows for an object's keys; inline sub-objects and switch settings are flattened into dotted paths. */
function keyRows(obj, prefix) {
  const rows = [];
  for (const [key, prop] of Object.entries(obj.properties ?? {})) {
    const p = prefix ? `${prefix}.${key}` : key;
    rows.push([code(p), typeText(prop), defaultText(prop), describe(prop, obj.required?.includes(key))]);
    if (!defName(prop) && hasProps(prop)) rows.push(...keyRows(prop, p));
    const settings = !defName(prop) && settingsBranch(prop);
    if (settings) rows.push(...keyRows(settings, p).filter((r) => r[0] !== code(p)));
  }
  return rows;
}

const KEY_HEADER = ["Key", "Type", "Default", "Description"];

function unionTable(union, label) {
  const key = dispatchKey(union);
  const rows = [];
  for (const { value, def } of variants(union)) {
    rows.push([code(value), "", "", "", def.description ?? ""]);
    for (const [k, prop] of Object.entries(def.properties)) {
      if (k === key) continue;
      rows.push(["", code(k), typeText(prop), defaultText(prop), describe(prop, def.required?.includes(k))]);
    }
  }
  return table([label, "Key", "Type", "Default", "Description"], rows);
}

function generate() {
  const out = [];
  const para = (...lines) => out.push(lines.join("\n"), "");
  para(
    "_Generated from `openclaw.plugin.json` by `node scripts/config-reference.mjs --write README.md`; edit the manifest, not this section._",
  );
  para(
    `Every object rejects unknown keys, so a typo is an error instead of a silent default. Where a key takes a list, a single string is also accepted.`,
  );

  para("### Top-level keys", "", table(KEY_HEADER, Object.entries(schema.properties).map(([k, s]) => [code(k), typeText(s), defaultText(s), describe(s, false)])));

  for (const [key, s] of Object.entries(schema.properties)) {
    if (defName(s) || !hasProps(s)) continue;
    para(`### \`${key}\``, "", s.description ?? "", "", table(KEY_HEADER, keyRows(s, key)));
  }

  const tw = defs.timeWindow;
  para("### `timeWindows.<name>`", "", tw.description, "", table(KEY_HEADER, keyRows(tw, "timeWindows.<name>")));

  para("### Policies", "", `\`policies\` is a list of policies. ${defs.policy.description}`);
  para("#### Policy (`policies[]`)", "", table(KEY_HEADER, keyRows(defs.policy, "")));
  para("#### Scope (`policies[].scope`)", "", defs.scope.description, "", table(KEY_HEADER, keyRows(defs.scope, "scope")));
  para("#### Rule (`policies[].rules[]`)", "", defs.rule.description, "", table(KEY_HEADER, keyRows(defs.rule, "")));
  para("#### Effects (`rules[].effect`)", "", `${defs.effect.description}`, "", unionTable(defs.effect, "`action`"));
  para("#### Conditions (`rules[].conditions[]`)", "", `${defs.condition.description} All conditions of a rule must hold.`, "", unionTable(defs.condition, "`type`"));

  const pm = defs.paramMatcher;
  para(
    "#### Param matchers (`params.<name>` of a `tool` condition)",
    "",
    `${pm.description} Params are read from the tool call; a dotted name reaches into nested params.`,
    "",
    table(["Matcher", "Type", "Description"], Object.entries(pm.properties).map(([k, s]) => [code(k), typeText(s), describe(s, false)])),
  );

  const names = (d) => defs[d].enum.map((v) => code(v)).join(", ");
  para(
    "#### Names",
    "",
    table(
      ["Kind", "Values", "Notes"],
      [
        ["trust tier", names("trustTier"), defs.trustTier.description],
        ["hook", names("hook"), defs.hook.description],
        ["risk level", names("riskLevel"), defs.riskLevel.description],
        ["`HH:MM`", "", defs.hhmm.description],
        ["regex", "", defs.regex.description],
      ],
    ),
  );
  return out.join("\n");
}

// ── README handling ──

function between(text, file) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < 0) {
    throw new Error(`${file}: markers not found; add a line "${START}" and, below it, a line "${END}" where the reference belongs`);
  }
  if (text.indexOf(START, start + 1) >= 0 || text.indexOf(END, end + 1) >= 0) {
    throw new Error(`${file}: the markers must appear exactly once each`);
  }
  if (end < start) throw new Error(`${file}: "${END}" comes before "${START}"`);
  return { head: text.slice(0, start + START.length), body: text.slice(start + START.length, end), tail: text.slice(end) };
}

function main(argv) {
  const reference = generate();
  const region = `\n${reference}\n`;
  const [mode, file] = argv;
  if (!mode) {
    process.stdout.write(reference + "\n");
    return 0;
  }
  if ((mode !== "--check" && mode !== "--write") || !file || argv.length > 2) {
    process.stderr.write("usage: config-reference.mjs [--check FILE | --write FILE]\n");
    return 2;
  }
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    process.stderr.write(`${file}: cannot read: ${e.message}\n`);
    return 1;
  }
  let parts;
  try {
    parts = between(text, file);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  if (mode === "--check") {
    if (parts.body === region) return 0;
    process.stderr.write(`${file}: the configuration reference is out of date; run: node scripts/config-reference.mjs --write ${file}\n`);
    return 1;
  }
  if (parts.body !== region) writeFileSync(file, parts.head + region + parts.tail);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
