"use strict";
// Condenses OpenClaw's JSON-lines log file: warnings, errors and any line naming the plugin.
//   node log-digest.js <openclaw.log> <plugin-id> [max-lines]
const fs = require("node:fs");
const [file, pluginId, max = "30"] = process.argv.slice(2);
const out = [];
for (const line of fs.readFileSync(file, "utf8").split("\n")) {
  if (!line.trim()) continue;
  let rec;
  try { rec = JSON.parse(line); } catch { rec = null; }
  if (!rec) { if (line.includes(pluginId)) out.push(line.slice(0, 300)); continue; }
  const meta = rec._meta || {};
  const level = meta.logLevelName || "?";
  const parts = Object.keys(rec).filter((k) => /^\d+$/.test(k)).map((k) => {
    const v = rec[k];
    return typeof v === "string" ? v : JSON.stringify(v);
  });
  const text = parts.join(" ").replace(/\s+/g, " ");
  if (/WARN|ERROR|FATAL/.test(level) || text.includes(pluginId) || /governance/i.test(text)) {
    out.push(`${(meta.date || "").slice(11, 23)} ${level.padEnd(5)} ${text.slice(0, 300)}`);
  }
}
console.log(out.slice(-Number(max)).join("\n") || "(nothing)");
