"use strict";
// Reads the session transcripts the real host keeps. OpenClaw 2026.9.6 stores them in SQLite, one database per
// agent: $OPENCLAW_STATE_DIR/agents/<agentId>/agent/openclaw-agent.sqlite, table transcript_events (one row per
// event: event_json, or zstd-compressed event_zstd), joined to the session key through session_windows /
// session_nodes (session_key -> current_session_id). Needs Node >= 24 (node:sqlite, zlib zstd).
//   node transcript.js dump <state-dir> <agent-id> <session-key> <out.json> [needle]
//       writes {db, sessionKey, sessionId, messages:[{seq, role, text}], needleElsewhere:[{table, column, rows}]}
//   node transcript.js wait <state-dir> <agent-id> <session-key> <seconds>
//       exits 0 once the session holds an assistant message with text, 1 on timeout
const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");

const [mode, stateDir, agentId, sessionKey, arg, needle] = process.argv.slice(2);

function dbPath() {
  return path.join(stateDir, "agents", agentId, "agent", "openclaw-agent.sqlite");
}
function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (b && b.type === "text" ? b.text : "")).filter(Boolean).join("\n");
  return "";
}
function read() {
  const file = dbPath();
  if (!fs.existsSync(file)) return { db: file, missing: true, messages: [] };
  const { DatabaseSync } = require("node:sqlite");
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const node = db.prepare("select current_session_id as id from session_nodes where session_key = ?").get(sessionKey);
    const ids = node ? [node.id]
      : db.prepare("select session_id as id from session_windows where session_key = ?").all(sessionKey).map((r) => r.id);
    const messages = [];
    for (const id of ids) {
      for (const r of db.prepare("select seq, event_json, event_zstd from transcript_events where session_id = ? order by seq").all(id)) {
        let json = r.event_json;
        if (json == null && r.event_zstd) json = zlib.zstdDecompressSync(Buffer.from(r.event_zstd)).toString("utf8");
        let ev;
        try { ev = JSON.parse(json); } catch { continue; }
        if (ev && ev.type === "message" && ev.message) {
          messages.push({ sessionId: id, seq: r.seq, role: ev.message.role, text: textOf(ev.message.content) });
        }
      }
    }
    const out = { db: file, sessionKey, sessionIds: ids, messages };
    if (needle) {
      // where else the host keeps the text (search index, trajectories, ...): plain-text columns only
      out.needleElsewhere = [];
      for (const t of db.prepare("select name from sqlite_master where type = 'table'").all()) {
        let cols;
        try { cols = db.prepare(`pragma table_info("${t.name}")`).all(); } catch { continue; }
        for (const c of cols) {
          if (t.name === "transcript_events" && c.name === "event_json") continue;
          try {
            const n = db.prepare(`select count(*) as n from "${t.name}" where typeof("${c.name}") = 'text' and instr("${c.name}", ?) > 0`).get(needle).n;
            if (n) out.needleElsewhere.push({ table: t.name, column: c.name, rows: n });
          } catch { /* virtual tables etc. */ }
        }
      }
    }
    return out;
  } finally {
    db.close();
  }
}

if (mode === "dump") {
  let out;
  try { out = read(); } catch (err) { out = { db: dbPath(), error: String(err && err.stack || err), messages: [] }; }
  fs.writeFileSync(arg, JSON.stringify(out, null, 2) + "\n");
} else if (mode === "wait") {
  const deadline = Date.now() + Number(arg || 30) * 1000;
  (function poll() {
    let ok = false;
    try { ok = read().messages.some((m) => m.role === "assistant" && m.text); } catch { /* not there yet */ }
    if (ok) process.exit(0);
    if (Date.now() > deadline) process.exit(1);
    setTimeout(poll, 300);
  })();
} else {
  console.error("usage: transcript.js dump|wait <state-dir> <agent-id> <session-key> ...");
  process.exit(2);
}
