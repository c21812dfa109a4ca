//! An agent that can write files edits trust.json while the gateway is stopped (issue 12: "an
//! edited trust.json loads as is: an intern became privileged"). The next engine does not trust
//! it, and says so in its log, its status and its audit trail.

use openclaw_governance::trust::{OperatorChange, TrustTier};
use openclaw_governance::{EngineOptions, GovernanceEngine};
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

fn config() -> Value {
    json!({ "audit": { "flushIntervalMs": 1 }, "trust": { "defaults": { "intern": 10 } } })
}

/// An operator locks intern at restricted, and the engine shuts down cleanly (trust.json written).
fn lock_intern(mut e: GovernanceEngine) {
    e.trust_operate(
        "intern",
        &OperatorChange::LockTier(TrustTier::Restricted),
        "op",
    )
    .unwrap();
    e.close().unwrap();
}

#[test]
fn an_offline_edit_is_reported_and_not_trusted_across_engine_lifetimes() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("governance/trust.json");
    lock_intern(GovernanceEngine::try_new(&config(), &opts(tmp.path())).unwrap());

    let mut v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let intern = &mut v["agents"]["intern"];
    intern["signals"]["manualAdjustment"] = 95.0.into();
    intern["score"] = 95.0.into();
    intern["tier"] = "privileged".into();
    intern.as_object_mut().unwrap().remove("locked");
    std::fs::write(&file, serde_json::to_vec_pretty(&v).unwrap()).unwrap();

    let mut second = GovernanceEngine::try_new(&config(), &opts(tmp.path())).unwrap();
    let view = second.trust_view("intern", None).unwrap();
    assert_eq!(view["tier"], "untrusted", "the edited score is not trusted");
    assert_eq!(view["locked"], Value::Null, "nor the lock it replaced");

    let status = serde_json::to_value(second.status()).unwrap();
    assert_eq!(status["trust"]["integrity"], "rejected");
    let problem = status["trust"]["loadError"].as_str().unwrap().to_string();
    assert!(problem.contains(&file.display().to_string()), "{problem}");

    let logs = second.take_logs();
    let line = logs
        .iter()
        .find(|l| l.message.contains("trust.json") && l.message.contains("rejected"))
        .expect("the log names the file");
    assert_eq!(line.level, "error");

    // A config edit rebuilds the engine: the rejection is not logged or recorded again.
    second.reconfigure(&config(), &opts(tmp.path()));
    assert!(second
        .take_logs()
        .iter()
        .all(|l| !l.message.contains("rejected")));
    second.close().unwrap();

    let rejected: Vec<Value> = records(tmp.path())
        .into_iter()
        .filter(|r| r["details"]["change"] == "store rejected")
        .collect();
    assert_eq!(rejected.len(), 1, "recorded once");
    assert_eq!(rejected[0]["verdict"], "governance.trust.change");
    assert_eq!(rejected[0]["details"]["problem"], problem.as_str());

    let key = std::fs::read_to_string(tmp.path().join("governance/keys/trust.key")).unwrap();
    let secret = key.trim().rsplit(':').next().unwrap();
    let trail = serde_json::to_string(&records(tmp.path())).unwrap();
    assert!(!trail.contains(secret) && !problem.contains(secret));
}

#[test]
fn an_untouched_trust_store_is_authenticated_and_keeps_the_operators_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let first = GovernanceEngine::try_new(&config(), &opts(tmp.path())).unwrap();
    let status = serde_json::to_value(first.status()).unwrap();
    assert_eq!(status["trust"]["integrity"], "new");
    lock_intern(first);

    let second = GovernanceEngine::try_new(&config(), &opts(tmp.path())).unwrap();
    let status = serde_json::to_value(second.status()).unwrap();
    assert_eq!(status["trust"]["integrity"], "authenticated");
    assert_eq!(status["trust"]["loadError"], Value::Null);
    assert_eq!(
        second.trust_view("intern", None).unwrap()["locked"],
        "restricted"
    );
}
