//! `audit prove` on a log whose oldest records retention removed: the proof must come from the
//! frontier pruned.json keeps plus the surviving records, and check against the signed root.

use openclaw_governance::audit::merkle::{from_hex, verify_inclusion, Hash};
use openclaw_governance::audit::prove::prove;
use openclaw_governance::audit::store::LogData;
use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn engine_on(dir: &Path, audit: Value) -> GovernanceEngine {
    let opts = EngineOptions {
        state_dir: Some(dir.to_path_buf()),
        ..Default::default()
    };
    GovernanceEngine::try_new(&json!({ "audit": audit }), &opts).unwrap()
}

/// Five records, two of them 200 and 100 days old, then a restart with 30 days' retention.
fn pruned_log(dir: &Path) -> PathBuf {
    let day = 86_400_000.0;
    let now = openclaw_governance::time::now_ms() as f64;
    {
        let e = engine_on(
            dir,
            json!({ "flushIntervalMs": 1, "retentionDays": 30, "checkpoint": { "everyRecords": 1 } }),
        );
        for (i, age) in [200.0, 100.0, 0.0, 0.0, 0.0].iter().enumerate() {
            let mut r: Request = serde_json::from_value(json!({
                "hook": "before_tool_call", "agentId": "main", "sessionKey": "agent:main:main",
                "toolName": "exec", "params": { "command": format!("ls {i}") }
            }))
            .unwrap();
            r.timestamp = Some(now - age * day);
            e.evaluate(&r);
            e.flush().unwrap();
        }
    }
    let e = engine_on(dir, json!({ "flushIntervalMs": 1, "retentionDays": 30 }));
    e.flush().unwrap();
    drop(e);
    dir.join("governance/audit")
}

fn hash(v: &Value) -> Hash {
    from_hex(v.as_str().unwrap()).unwrap()
}

#[test]
fn records_after_a_pruned_prefix_are_proven_against_the_signed_root() {
    let tmp = tempfile::tempdir().unwrap();
    let data = LogData::read(&pruned_log(tmp.path())).unwrap();
    let through = data.pruned.as_ref().expect("retention ran").through;
    assert_eq!(through, 2);
    for seq in through..5 {
        let p = prove(&data, seq).unwrap();
        let proof: Vec<Hash> = p["inclusionProof"]
            .as_array()
            .unwrap()
            .iter()
            .map(hash)
            .collect();
        let size = p["treeSize"].as_u64().unwrap();
        assert!(size > seq);
        assert!(
            verify_inclusion(
                seq,
                size,
                &hash(&p["leafHash"]),
                &proof,
                &hash(&p["rootHash"])
            ),
            "record {seq}"
        );
        assert_eq!(p["checkpoint"]["rootHash"], p["rootHash"]);
    }
    let gone = prove(&data, 1).unwrap_err();
    assert!(gone.contains("removed by retention"), "{gone}");
}

#[test]
fn a_pruned_frontier_missing_a_root_proves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let mut data = LogData::read(&pruned_log(tmp.path())).unwrap();
    if let Some(p) = data.pruned.as_mut() {
        p.frontier.pop();
    }
    let err = prove(&data, 3).unwrap_err();
    assert!(err.contains("pruned"), "{err}");
}
