//! A config edit while the host runs: the engine takes the new config and keeps what it learnt
//! and its audit chain (issue: "any edit of the plugin config … switches the audit trail and
//! trust off until a restart").

use openclaw_governance::audit::checkpoint::{SignerKey, VerifierKey};
use openclaw_governance::audit::store::LogData;
use openclaw_governance::audit::verify::verify;
use openclaw_governance::trust::{OperatorChange, TrustTier};
use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};
use std::path::Path;

mod common;
use common::records;

fn opts(dir: &Path) -> EngineOptions {
    EngineOptions {
        state_dir: Some(dir.to_path_buf()),
        ..Default::default()
    }
}

fn exec(agent: &str, command: &str) -> Request {
    serde_json::from_value(json!({
        "hook": "before_tool_call", "agentId": agent, "sessionKey": format!("agent:{agent}:main"),
        "toolName": "exec", "params": { "command": command }
    }))
    .unwrap()
}

fn deny_policy(id: &str, prefix: &str) -> Value {
    json!({ "id": id, "rules": [{ "id": "r", "conditions": [{ "type": "tool", "name": "exec",
        "params": { "command": { "startsWith": prefix } } }], "effect": { "action": "deny", "reason": format!("no {prefix}") } }] })
}

fn verified(dir: &Path) -> openclaw_governance::audit::verify::VerifyReport {
    let key = SignerKey::load_or_create(&dir.join("governance/keys/audit-signing.key"))
        .unwrap()
        .public_key();
    verify(
        &LogData::read(&dir.join("governance/audit")).unwrap(),
        Some(&VerifierKey::parse(&key).unwrap()),
    )
}

#[test]
fn an_edit_applies_at_once_and_the_chain_and_trust_lock_carry_on() {
    let tmp = tempfile::tempdir().unwrap();
    let before =
        json!({ "audit": { "flushIntervalMs": 1 }, "policies": [deny_policy("no-rm", "rm")] });
    let mut e = GovernanceEngine::try_new(&before, &opts(tmp.path())).unwrap();
    e.trust_operate(
        "intern",
        &OperatorChange::LockTier(TrustTier::Restricted),
        "op",
    )
    .unwrap();
    assert_eq!(e.evaluate(&exec("main", "ls")).action.as_str(), "allow");

    let after = json!({ "audit": { "flushIntervalMs": 1 },
        "policies": [deny_policy("no-rm", "rm"), deny_policy("no-ls", "ls")] });
    e.reconfigure(&after, &opts(tmp.path()));
    let v = e.evaluate(&exec("main", "ls -la"));
    assert_eq!(v.action.as_str(), "deny", "the new policy applies at once");
    assert!(e.status().audit.enabled, "still auditing after the edit");
    let intern = e.trust_view("intern", None).unwrap();
    assert_eq!(
        intern["locked"], "restricted",
        "the operator's lock survives the edit"
    );
    e.close().unwrap();

    let report = verified(tmp.path());
    assert!(report.valid, "{:?}", report.problems);
    let recs = records(tmp.path());
    let deny = recs
        .iter()
        .find(|r| r["context"]["toolParams"]["command"] == "ls -la")
        .expect("the deny after the edit is in the trail");
    assert_eq!(deny["verdict"], "deny");
    assert_eq!(deny["policyId"], "no-ls");
    let change = recs
        .iter()
        .find(|r| r["verdict"] == "governance.config.change")
        .expect("the edit itself is recorded");
    assert_eq!(change["controls"], json!(["A.8.9"]));
    // The two of the edit and builtin self-protection, on by default.
    assert_eq!(change["details"]["policies"], 3);
    let seqs: Vec<u64> = recs.iter().map(|r| r["seq"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = (0..recs.len() as u64).collect();
    assert_eq!(seqs, expected, "one sequence, nothing written twice");

    // And after a restart.
    let again = GovernanceEngine::try_new(&after, &opts(tmp.path())).unwrap();
    assert_eq!(
        again.trust_view("intern", None).unwrap()["locked"],
        "restricted"
    );
}

#[test]
fn rate_windows_survive_an_edit() {
    let tmp = tempfile::tempdir().unwrap();
    let limited = |tz: &str| json!({ "timezone": tz, "builtinPolicies": { "rateLimiter": { "maxPerMinute": 2 } } });
    let mut e = GovernanceEngine::try_new(&limited("UTC"), &opts(tmp.path())).unwrap();
    assert_eq!(e.evaluate(&exec("main", "a")).action.as_str(), "allow");
    assert_eq!(e.evaluate(&exec("main", "b")).action.as_str(), "allow");
    e.reconfigure(&limited("Europe/Berlin"), &opts(tmp.path()));
    assert_eq!(
        e.evaluate(&exec("main", "c")).action.as_str(),
        "deny",
        "an edit is no way around the rate limit"
    );
}

#[test]
fn a_bad_edit_fails_by_mode_and_the_next_good_one_finds_the_state() {
    let tmp = tempfile::tempdir().unwrap();
    let mut e = GovernanceEngine::try_new(&json!({}), &opts(tmp.path())).unwrap();
    e.trust_operate("forge", &OperatorChange::Floor(45.0), "op")
        .unwrap();
    e.reconfigure(
        &json!({ "failMode": "closed", "failmode": "typo" }),
        &opts(tmp.path()),
    );
    let v = e.evaluate(&exec("main", "ls"));
    assert_eq!(v.action.as_str(), "deny", "closed: a rejected edit blocks");
    assert!(v.reason.contains("failmode"), "{}", v.reason);
    e.reconfigure(&json!({}), &opts(tmp.path()));
    assert_eq!(e.evaluate(&exec("main", "ls")).action.as_str(), "allow");
    assert_eq!(e.trust_view("forge", None).unwrap()["floor"], 45.0);
    e.close().unwrap();
    assert!(verified(tmp.path()).valid);
}

#[test]
fn a_new_workspace_moves_the_trail_and_frees_the_old_one() {
    let old = tempfile::tempdir().unwrap();
    let new = tempfile::tempdir().unwrap();
    let mut e = GovernanceEngine::try_new(&json!({}), &opts(old.path())).unwrap();
    e.evaluate(&exec("main", "before"));
    let moved = json!({ "workspace": new.path() });
    e.reconfigure(&moved, &opts(old.path()));
    e.evaluate(&exec("main", "after"));
    e.close().unwrap();
    let in_old: Vec<Value> = records(old.path());
    assert!(in_old
        .iter()
        .any(|r| r["context"]["toolParams"]["command"] == "before"));
    assert!(records(new.path())
        .iter()
        .any(|r| r["context"]["toolParams"]["command"] == "after"));
    let old_report = verified(old.path());
    assert!(old_report.valid, "{:?}", old_report.problems);
    assert_eq!(
        old_report.last_checkpoint.map(|c| c.size),
        Some(old_report.records),
        "the old trail was closed with a checkpoint covering it"
    );
}

#[test]
fn closed_mode_refuses_what_it_cannot_record() {
    for (mode, expected) in [("closed", "deny"), ("open", "allow")] {
        let tmp = tempfile::tempdir().unwrap();
        // The audit directory cannot be created: a file is where it should be.
        std::fs::create_dir_all(tmp.path().join("governance")).unwrap();
        std::fs::write(tmp.path().join("governance/audit"), b"not a directory").unwrap();
        let e = GovernanceEngine::new(&json!({ "failMode": mode }), &opts(tmp.path()));
        let v = e.evaluate(&exec("main", "ls"));
        assert_eq!(v.action.as_str(), expected, "failMode {mode}");
        if mode == "closed" {
            assert!(
                v.reason.contains("audit trail cannot be written"),
                "{}",
                v.reason
            );
        }
        assert!(e.status().audit.last_error.is_some());
    }
}

#[test]
fn closed_mode_refuses_once_a_write_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let e = GovernanceEngine::try_new(
        &json!({ "failMode": "closed", "audit": { "flushIntervalMs": 1 } }),
        &opts(tmp.path()),
    )
    .unwrap();
    assert_eq!(e.evaluate(&exec("main", "ls")).action.as_str(), "allow");
    e.flush().unwrap();
    // Today's file can no longer be read (a directory took its place), so the writer cannot
    // know where the chain ends and must not append.
    let audit = tmp.path().join("governance/audit");
    let today = openclaw_governance::audit::store::daily_files(&audit)
        .pop()
        .unwrap();
    std::fs::rename(&today, audit.join("moved.jsonl.bak")).unwrap();
    std::fs::create_dir(&today).unwrap();
    let _ = e.evaluate(&exec("main", "pwd"));
    let _ = e.flush();
    let v = e.evaluate(&exec("main", "whoami"));
    assert_eq!(v.action.as_str(), "deny", "{}", v.reason);
    assert!(
        v.reason.contains("audit trail cannot be written"),
        "{}",
        v.reason
    );
}
