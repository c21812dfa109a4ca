//! Writing small audit logs and editing them as an attacker who holds the signing key would:
//! records rewritten with the chain recomputed, checkpoints signed afresh.
#![allow(dead_code)]

use openclaw_governance::audit::checkpoint::{self, Checkpoint, SignerKey, VerifierKey};
use openclaw_governance::audit::line;
use openclaw_governance::audit::merkle::{self, Frontier};
use openclaw_governance::audit::store::LogData;
use openclaw_governance::audit::verify::{verify, VerifyReport};
use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

pub fn request(i: usize, cmd: &str) -> Request {
    serde_json::from_value(json!({
        "hook": "before_tool_call", "agentId": "main", "sessionKey": "agent:main:main",
        "toolName": "exec", "params": { "command": format!("{cmd} {i}") }
    }))
    .unwrap()
}

/// A small log: `n` records, a checkpoint every 2, the final one at close.
pub fn write_log(dir: &Path, n: usize) -> (PathBuf, String) {
    let config = json!({
        "audit": { "checkpoint": { "everyRecords": 2 }, "flushIntervalMs": 1 },
        // High enough that the blocks below never move main's tier (which would add a record).
        "trust": { "defaults": { "main": 75 } },
        "policies": [{ "id": "p", "rules": [{ "id": "rm", "conditions": [{ "type": "tool", "params": { "command": { "startsWith": "rm" } } }],
            "effect": { "action": "deny", "reason": "no" } }] }]
    });
    let opts = EngineOptions {
        state_dir: Some(dir.to_path_buf()),
        ..Default::default()
    };
    {
        let e = GovernanceEngine::try_new(&config, &opts).unwrap();
        for i in 0..n {
            // Blocks are durable at once, so each is followed by a sync and a checkpoint check.
            e.evaluate(&request(i, if i % 2 == 0 { "rm -rf" } else { "ls" }));
            e.flush().unwrap();
        }
    }
    (dir.join("governance/audit"), signer(dir).public_key())
}

/// The gateway's own signing key (what a thief would have).
pub fn signer(state_dir: &Path) -> SignerKey {
    SignerKey::load(&state_dir.join("governance/keys/audit-signing.key")).unwrap()
}

pub fn check(data: &LogData, pubkey: &str) -> VerifyReport {
    verify(data, Some(&VerifierKey::parse(pubkey).unwrap()))
}

/// Every record as JSON, in order.
pub fn record_values(data: &LogData) -> Vec<Value> {
    data.files
        .iter()
        .flat_map(|(_, b)| b.split(|c| *c == b'\n').filter(|l| !l.is_empty()))
        .map(|l| serde_json::from_slice(&line::decode(l).unwrap().1).unwrap())
        .collect()
}

/// The log with `edit` applied to its records and every hash and link recomputed: a rewrite
/// that the chain alone cannot tell from the original.
pub fn rechain(data: &LogData, mut edit: impl FnMut(&mut Value)) -> LogData {
    let mut prev = data
        .pruned
        .as_ref()
        .map_or_else(|| "0".repeat(64), |p| p.last_hash.clone());
    let mut out = data.clone();
    for (_, bytes) in out.files.iter_mut() {
        let mut file = Vec::new();
        for l in bytes.split(|c| *c == b'\n').filter(|l| !l.is_empty()) {
            let mut v: Value = serde_json::from_slice(&line::decode(l).unwrap().1).unwrap();
            edit(&mut v);
            v["prevHash"] = json!(prev);
            let (hash, encoded) = line::encode(&serde_json::to_vec(&v).unwrap());
            prev = merkle::hex(&hash);
            file.extend_from_slice(&encoded);
        }
        *bytes = file;
    }
    out
}

/// Fresh checkpoints at the same sizes as the log's, over its current records, signed with
/// `key`, each carrying a consistency proof from the one before (a thorough forger).
pub fn resign(data: &LogData, key: &SignerKey) -> String {
    let notes = checkpoint::parse_notes(&data.checkpoints).unwrap();
    let old: Vec<Checkpoint> = notes
        .iter()
        .map(|n| checkpoint::open_unchecked(n).unwrap())
        .collect();
    let offset = data.pruned.as_ref().map_or(0, |p| p.through);
    let leaves = data.leaves().unwrap();
    let tree = leaves.tree();
    let mut text = String::new();
    let mut from = 0;
    for c in old.iter().filter(|c| c.size >= offset) {
        let mut cp = Checkpoint::new(&c.origin, c.size, tree.root(c.size).unwrap(), c.timestamp);
        cp.link = Some(checkpoint::Link {
            from,
            proof: tree.consistency(from, c.size).unwrap_or_default(),
        });
        from = c.size;
        text.push_str(&format!("{}\n", key.sign(&cp)));
    }
    text
}

/// The frontier of the first `n` leaves of `data` (no pruning).
pub fn frontier_of(data: &LogData, n: usize) -> Frontier {
    let mut f = Frontier::default();
    for h in &data.leaves().unwrap().hashes()[..n] {
        f.push(*h);
    }
    f
}
