//! Secrets in the shapes agents actually type (tokens, URLs with passwords, CLI password flags,
//! env assignments, header objects, cookies, query strings, JSON bodies, private keys) must never
//! reach disk: each shape of `tests/fixtures/redaction-corpus.json` goes through the real engine
//! and audit writer as an exec command, inside nested tool params and as message content, and then
//! every byte under the state directory is searched for every secret and for every 10-character
//! piece of it (a partial redaction is a leak too). Ordinary text must come out unchanged.

use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Shorter pieces of random secrets could meet chain hashes and UUIDs by chance.
const PIECE: usize = 10;

fn corpus() -> Value {
    let text = include_str!("fixtures/redaction-corpus.json");
    serde_json::from_str(text).expect("the corpus is valid JSON")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Every `PIECE`-byte slice of a secret (ASCII secrets, so byte slices are text).
fn pieces(secret: &str) -> std::slice::Windows<'_, u8> {
    secret.as_bytes().windows(PIECE)
}

fn request(hook: &str, session: &str, tool: Option<&str>, params: Option<Value>) -> Request {
    serde_json::from_value(json!({
        "hook": hook, "agentId": "main", "sessionKey": session,
        "toolName": tool, "params": params.unwrap_or(Value::Null),
    }))
    .expect("request shape")
}

fn message(session: &str, content: &str) -> Request {
    Request {
        hook: "message_sending".into(),
        session_key: Some(session.into()),
        message_content: Some(content.into()),
        ..Request::default()
    }
}

/// The three ways a text reaches the trail: a command, nested params (an argv-like array and an
/// object inside an object), a message. Session keys name the shape and the way.
fn send_text(e: &GovernanceEngine, tag: &str, text: &str) {
    let exec = request(
        "before_tool_call",
        &format!("agent:main:{tag}:exec"),
        Some("exec"),
        Some(json!({ "command": text })),
    );
    let nested = request(
        "before_tool_call",
        &format!("agent:main:{tag}:nested"),
        Some("http_request"),
        Some(json!({ "request": { "args": ["--verbose", text], "meta": { "note": text } } })),
    );
    e.evaluate(&exec);
    e.evaluate(&nested);
    e.evaluate(&message(&format!("agent:main:{tag}:message"), text));
}

fn send_params(e: &GovernanceEngine, tag: &str, params: &Value) {
    let r = request(
        "before_tool_call",
        &format!("agent:main:{tag}:params"),
        Some("http_request"),
        Some(params.clone()),
    );
    e.evaluate(&r);
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir").flatten() {
        let p = entry.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every `PIECE`-byte window of every file, with where it was first seen (a record's session key,
/// or the file name for files that are not records).
fn windows_on_disk(dir: &Path) -> HashMap<Vec<u8>, String> {
    let mut files = Vec::new();
    files_under(dir, &mut files);
    let mut seen = HashMap::new();
    for f in files {
        let bytes = std::fs::read(&f).expect("readable file");
        for line in bytes.split(|b| *b == b'\n') {
            let place = serde_json::from_slice::<Value>(line)
                .ok()
                .and_then(|v| v["context"]["sessionKey"].as_str().map(String::from))
                .unwrap_or_else(|| f.display().to_string());
            for w in line.windows(PIECE) {
                seen.entry(w.to_vec()).or_insert_with(|| place.clone());
            }
        }
    }
    seen
}

fn records(audit_dir: &Path) -> HashMap<String, Value> {
    let mut out = HashMap::new();
    for entry in std::fs::read_dir(audit_dir).expect("audit dir").flatten() {
        let p = entry.path();
        if p.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let bytes = std::fs::read(&p).expect("audit file");
        for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let v: Value = serde_json::from_slice(line).expect("a record is JSON");
            if let Some(k) = v["context"]["sessionKey"].as_str() {
                out.insert(k.to_string(), v);
            }
        }
    }
    out
}

struct Trail {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

/// Sends the whole corpus through one engine and closes it, so everything is on disk.
fn write_trail(c: &Value) -> Trail {
    let tmp = tempfile::tempdir().expect("temp dir");
    let reason = c["block_reason"]["text"].as_str().expect("block reason");
    let config = json!({
        "audit": { "flushIntervalMs": 1 },
        "builtinPolicies": {},
        "trust": { "defaults": { "main": 75 } },
        "policies": [{ "id": "p", "rules": [{ "id": "no-migrations",
            "conditions": [{ "type": "tool", "name": "exec", "params": { "command": { "startsWith": "DENY" } } }],
            "effect": { "action": "deny", "reason": reason } }] }]
    });
    let opts = EngineOptions {
        state_dir: Some(tmp.path().to_path_buf()),
        ..Default::default()
    };
    {
        let e = GovernanceEngine::try_new(&config, &opts).expect("engine");
        for (i, s) in c["secrets"].as_array().expect("secrets").iter().enumerate() {
            let tag = format!("s{i}");
            match (s["text"].as_str(), s.get("params")) {
                (Some(text), _) => send_text(&e, &tag, text),
                (None, Some(params)) => send_params(&e, &tag, params),
                _ => panic!("entry {i} has neither text nor params"),
            }
        }
        let deny = request(
            "before_tool_call",
            "agent:main:deny:exec",
            Some("exec"),
            Some(json!({ "command": "DENY migrate" })),
        );
        assert!(e.evaluate(&deny).is_block(), "the deny rule applies");
        for (i, text) in strings(&c["ordinary"]).iter().enumerate() {
            send_text(&e, &format!("o{i}"), text);
        }
        for (i, params) in c["ordinary_params"]
            .as_array()
            .expect("list")
            .iter()
            .enumerate()
        {
            send_params(&e, &format!("op{i}"), params);
        }
        e.flush().expect("flush");
    }
    Trail {
        dir: tmp.path().to_path_buf(),
        _tmp: tmp,
    }
}

#[test]
fn the_corpus_is_well_formed() {
    let c = corpus();
    let entries = c["secrets"].as_array().expect("secrets");
    assert!(entries.len() >= 60, "{} shapes", entries.len());
    let mut seen = HashSet::new();
    for s in entries {
        let id = s["id"].as_str().expect("id");
        assert!(seen.insert(id), "duplicate id {id}");
        let text = match s["text"].as_str() {
            Some(t) => t.to_string(),
            None => s["params"].to_string(),
        };
        let secrets = strings(&s["secrets"]);
        assert!(!secrets.is_empty(), "{id} names no secret");
        let mut rest = text.clone();
        for secret in &secrets {
            assert!(
                secret.len() >= PIECE,
                "{id}: {secret} is shorter than {PIECE}"
            );
            assert!(
                text.contains(secret.as_str()),
                "{id}: {secret} not in its text"
            );
            rest = rest.replace(secret.as_str(), "");
        }
        // Otherwise a piece could be found on disk without any leak.
        for secret in &secrets {
            for p in pieces(secret) {
                let p = std::str::from_utf8(p).expect("ascii");
                assert!(!rest.contains(p), "{id}: {p} also outside the secret");
            }
        }
    }
}

#[test]
fn no_secret_of_the_corpus_reaches_disk() {
    let c = corpus();
    let trail = write_trail(&c);
    let on_disk = windows_on_disk(&trail.dir);
    let got = records(&trail.dir.join("governance/audit"));
    let mut leaks = Vec::new();
    let mut shapes = Vec::new();
    let mut entries: Vec<(String, Vec<String>, String)> = c["secrets"]
        .as_array()
        .expect("secrets")
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let id = s["id"].as_str().unwrap_or_default().to_string();
            (id, strings(&s["secrets"]), format!("s{i}"))
        })
        .collect();
    entries.push((
        "block-reason".into(),
        strings(&c["block_reason"]["secrets"]),
        "deny".into(),
    ));
    for (id, secrets, tag) in &entries {
        // No record missing, so nothing passes by never being written.
        let written = got
            .keys()
            .filter(|k| k.contains(&format!(":{tag}:")))
            .count();
        assert!(written > 0, "{id}: no record written");
        let mut leaked = false;
        for secret in secrets {
            if let Some((piece, place)) =
                pieces(secret).find_map(|p| on_disk.get(p).map(|w| (p, w)))
            {
                leaked = true;
                leaks.push(format!(
                    "{id}: {:?} of {secret} in {place}",
                    String::from_utf8_lossy(piece)
                ));
            }
        }
        if leaked {
            shapes.push(id.clone());
        }
    }
    assert!(
        shapes.is_empty(),
        "{} of {} shapes leaked: {shapes:?}\n{}",
        shapes.len(),
        entries.len(),
        leaks.join("\n")
    );
}

#[test]
fn ordinary_text_and_params_come_out_unchanged() {
    let c = corpus();
    let trail = write_trail(&c);
    let got = records(&trail.dir.join("governance/audit"));
    let mut changed = Vec::new();
    for (i, text) in strings(&c["ordinary"]).iter().enumerate() {
        let at = |way: &str| got.get(&format!("agent:main:o{i}:{way}"));
        let expected = [
            (
                "exec",
                at("exec").map(|r| r["context"]["toolParams"]["command"].clone()),
            ),
            (
                "args",
                at("nested").map(|r| r["context"]["toolParams"]["request"]["args"][1].clone()),
            ),
            (
                "note",
                at("nested").map(|r| r["context"]["toolParams"]["request"]["meta"]["note"].clone()),
            ),
            (
                "message",
                at("message").map(|r| r["context"]["messageContent"].clone()),
            ),
        ];
        for (way, v) in expected {
            if v.as_ref().and_then(Value::as_str) != Some(text.as_str()) {
                changed.push(format!("{text:?} as {way}: {v:?}"));
            }
        }
    }
    for (i, params) in c["ordinary_params"]
        .as_array()
        .expect("list")
        .iter()
        .enumerate()
    {
        let v = got
            .get(&format!("agent:main:op{i}:params"))
            .map(|r| r["context"]["toolParams"].clone());
        if v.as_ref() != Some(params) {
            changed.push(format!("{params} became {v:?}"));
        }
    }
    assert!(
        changed.is_empty(),
        "{} ordinary texts changed:\n{}",
        changed.len(),
        changed.join("\n")
    );
}
