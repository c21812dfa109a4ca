//! Witnesses against a stolen log key: two engines (two state directories), witnesses that
//! cosign engine A's checkpoints, and an auditor who requires their cosignatures. A log that was
//! rewritten and signed again with A's real key passes `verify --pubkey`, and must not pass a
//! witness nor `verify --witness-pubkey`.

use openclaw_governance::audit::checkpoint::{self, Checkpoint, Link, SignerKey, VerifierKey};
use openclaw_governance::audit::line;
use openclaw_governance::audit::merkle::{self, Hash, Tree};
use openclaw_governance::audit::store::{self, LogData, GENESIS};
use openclaw_governance::audit::verify::{verify_with, Coverage, Options, VerifyReport};
use openclaw_governance::audit::witness::{self, Report, WitnessError, WitnessKey};
use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};

const NOW: u64 = 1_800_000_000;

fn config() -> Value {
    json!({
        "audit": { "checkpoint": { "everyRecords": 2 }, "flushIntervalMs": 1 },
        // High enough that the blocks below never move main's tier (which would add a record).
        "trust": { "defaults": { "main": 75 } },
        "policies": [{ "id": "p", "rules": [{ "id": "rm", "conditions": [{ "type": "tool", "params": { "command": { "startsWith": "rm" } } }],
            "effect": { "action": "deny", "reason": "no" } }] }]
    })
}

fn engine(state: &Path, config: &Value) -> GovernanceEngine {
    let opts = EngineOptions {
        state_dir: Some(state.to_path_buf()),
        ..Default::default()
    };
    GovernanceEngine::try_new(config, &opts).unwrap()
}

/// One engine run on `state`: `n` actions, every other one denied; closing signs the last.
fn write(state: &Path, n: usize) {
    let e = engine(state, &config());
    for i in 0..n {
        let cmd = if i % 2 == 0 { "rm -rf" } else { "ls" };
        let req: Request = serde_json::from_value(json!({
            "hook": "before_tool_call", "agentId": "main", "sessionKey": "agent:main:main",
            "toolName": "exec", "params": { "command": format!("{cmd} {i}") }
        }))
        .unwrap();
        e.evaluate(&req);
        e.flush().unwrap();
    }
}

fn audit_dir(state: &Path) -> PathBuf {
    state.join("governance/audit")
}

fn log_signer(state: &Path) -> SignerKey {
    SignerKey::load(&state.join("governance/keys/audit-signing.key")).unwrap()
}

fn log_key(state: &Path) -> VerifierKey {
    VerifierKey::parse(&log_signer(state).public_key()).unwrap()
}

fn run(dir: &Path, key: &Path, log: Option<VerifierKey>) -> Result<Report, WitnessError> {
    witness::witness(dir, key, log, None, NOW)
}

fn verify(state: &Path, witnesses: &[WitnessKey], coverage: Coverage) -> VerifyReport {
    let key = log_key(state);
    let data = LogData::read(&audit_dir(state)).unwrap();
    verify_with(
        &data,
        &Options {
            key: Some(&key),
            coverage,
            witnesses,
            ..Options::default()
        },
    )
}

fn reasons(r: &VerifyReport) -> String {
    r.problems
        .iter()
        .map(|p| p.reason.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

fn pinned(report: &Report) -> WitnessKey {
    WitnessKey::parse(&report.witness).unwrap()
}

fn newest_size(state: &Path) -> u64 {
    let text = fs::read_to_string(audit_dir(state).join("checkpoints")).unwrap();
    let notes = checkpoint::parse_notes(&text).unwrap();
    checkpoint::open_unchecked(notes.last().unwrap())
        .unwrap()
        .size
}

#[test]
fn a_witness_cosigns_engine_a_across_runs_and_verify_requires_it() {
    let a = tempfile::tempdir().unwrap();
    let w = tempfile::tempdir().unwrap();
    let key = w.path().join("w.key");
    write(a.path(), 4);
    let first = run(&audit_dir(a.path()), &key, Some(log_key(a.path()))).unwrap();
    assert!(first.first_run && first.cosigned.len() >= 2, "{first:?}");
    assert_eq!(first.size, newest_size(a.path()));
    let w1 = [pinned(&first)];
    let r = verify(a.path(), &w1, Coverage::Full);
    assert!(r.valid, "{}", reasons(&r));
    let seen = r.witnessed.unwrap();
    assert_eq!((seen.covered, seen.uncovered), (r.records, 0));
    assert_eq!(seen.witnesses[0].cosigned.unwrap().time, NOW);

    write(a.path(), 4);
    let r = verify(a.path(), &w1, Coverage::Full);
    assert!(!r.valid);
    assert!(
        reasons(&r).contains("4 records after size"),
        "{}",
        reasons(&r)
    );
    let r = verify(a.path(), &w1, Coverage::AllowTail);
    assert!(r.valid, "{}", reasons(&r));
    assert_eq!(r.witnessed.unwrap().uncovered, 4);

    // The second run needs no key (it was pinned) and cosigns only what is new.
    let second = run(&audit_dir(a.path()), &key, None).unwrap();
    assert!(!second.first_run);
    assert!(
        second.cosigned.iter().all(|s| *s > first.size),
        "{second:?}"
    );
    assert_eq!(second.size, newest_size(a.path()));
    let r = verify(a.path(), &w1, Coverage::Full);
    assert!(r.valid, "{}", reasons(&r));
    assert!(run(&audit_dir(a.path()), &key, None)
        .unwrap()
        .cosigned
        .is_empty());
}

/// What someone holding A's key can do: flip a deny into an allow, recompute every hash and
/// link, and sign fresh checkpoints whose consistency proofs agree with one another.
fn rewrite_history(state: &Path) {
    let dir = audit_dir(state);
    let mut prev = GENESIS.to_string();
    let mut leaves: Vec<Hash> = Vec::new();
    let mut flipped = false;
    for file in store::daily_files(&dir) {
        let mut out = Vec::new();
        for l in fs::read(&file)
            .unwrap()
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
        {
            let (_, canonical) = line::decode(l).unwrap();
            let mut record: Value = serde_json::from_slice(&canonical).unwrap();
            if !flipped && record["verdict"] == "deny" {
                record["verdict"] = json!("allow");
                flipped = true;
            }
            record["prevHash"] = json!(prev);
            let (hash, bytes) = line::encode(&serde_json::to_vec(&record).unwrap());
            prev = merkle::hex(&hash);
            leaves.push(hash);
            out.extend_from_slice(&bytes);
        }
        fs::write(&file, out).unwrap();
    }
    assert!(flipped);
    let text = fs::read_to_string(dir.join("checkpoints")).unwrap();
    let old: Vec<Checkpoint> = checkpoint::parse_notes(&text)
        .unwrap()
        .iter()
        .map(|n| checkpoint::open_unchecked(n).unwrap())
        .collect();
    let tree = Tree::new(0, &leaves, &[]);
    let key = log_signer(state);
    let mut notes = String::new();
    let mut from = None;
    for c in &old {
        let mut cp = Checkpoint::new(&c.origin, c.size, tree.root(c.size).unwrap(), c.timestamp);
        cp.link = from.map(|m| Link {
            from: m,
            proof: tree.consistency(m, c.size).unwrap(),
        });
        notes.push_str(&format!("{}\n", key.sign(&cp)));
        from = Some(c.size);
    }
    fs::write(dir.join("checkpoints"), notes).unwrap();
    let _ = fs::remove_file(dir.join("chain-state.json"));
}

#[test]
fn a_history_rewritten_and_re_signed_with_the_real_key_is_refused() {
    let a = tempfile::tempdir().unwrap();
    let w = tempfile::tempdir().unwrap();
    let key = w.path().join("w.key");
    write(a.path(), 6);
    let first = run(&audit_dir(a.path()), &key, Some(log_key(a.path()))).unwrap();
    let cosignatures = fs::read(audit_dir(a.path()).join("cosignatures")).unwrap();
    rewrite_history(a.path());
    // The log key alone cannot tell: that is why witnesses exist.
    let r = verify(a.path(), &[], Coverage::Full);
    assert!(r.valid, "the rewrite must be a good one: {}", reasons(&r));

    let e = run(&audit_dir(a.path()), &key, None).unwrap_err();
    assert!(e.is_refusal(), "{e}");
    assert!(e.to_string().contains("refused: checkpoint "), "{e}");
    assert_eq!(
        fs::read(audit_dir(a.path()).join("cosignatures")).unwrap(),
        cosignatures,
        "nothing cosigned"
    );
    let r = verify(a.path(), &[pinned(&first)], Coverage::AllowTail);
    assert!(!r.valid);
    assert!(
        reasons(&r).contains("has cosigned no checkpoint of this log"),
        "{}",
        reasons(&r)
    );
}

#[test]
fn a_witness_on_another_machine_needs_only_a_copy_of_checkpoints() {
    let a = tempfile::tempdir().unwrap();
    let remote = tempfile::tempdir().unwrap();
    write(a.path(), 4);
    let copy = remote.path().join("copy");
    fs::create_dir(&copy).unwrap();
    fs::copy(
        audit_dir(a.path()).join("checkpoints"),
        copy.join("checkpoints"),
    )
    .unwrap();
    let key = remote.path().join("w.key");
    let report = run(&copy, &key, Some(log_key(a.path()))).unwrap();
    assert_eq!(report.size, newest_size(a.path()));
    assert_eq!(
        fs::read_dir(&copy).unwrap().count(),
        2,
        "checkpoints and cosignatures only"
    );
    // Brought back beside the log, the cosignatures satisfy the auditor.
    let back = fs::read(copy.join("cosignatures")).unwrap();
    fs::write(audit_dir(a.path()).join("cosignatures"), back).unwrap();
    let r = verify(a.path(), &[pinned(&report)], Coverage::Full);
    assert!(r.valid, "{}", reasons(&r));

    // The next copy brings A's new checkpoints: only those are cosigned.
    write(a.path(), 2);
    fs::copy(
        audit_dir(a.path()).join("checkpoints"),
        copy.join("checkpoints"),
    )
    .unwrap();
    let next = run(&copy, &key, None).unwrap();
    assert!(next.cosigned.iter().all(|s| *s > report.size), "{next:?}");
}

#[test]
fn a_cosignature_by_another_key_or_on_another_logs_checkpoint_does_not_count() {
    let (a, b, w) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    write(a.path(), 4);
    write(b.path(), 4);
    // W1 follows B; W2 follows A.
    let w1 = run(
        &audit_dir(b.path()),
        &w.path().join("w1.key"),
        Some(log_key(b.path())),
    )
    .unwrap();
    let w2 = run(
        &audit_dir(a.path()),
        &w.path().join("w2.key"),
        Some(log_key(a.path())),
    )
    .unwrap();
    let (w1, w2) = (pinned(&w1), pinned(&w2));
    let a_cosignatures = audit_dir(a.path()).join("cosignatures");
    let mut text = fs::read_to_string(&a_cosignatures).unwrap();
    // W1's cosignatures of B's checkpoints, brought into A's file.
    text.push_str(&fs::read_to_string(audit_dir(b.path()).join("cosignatures")).unwrap());
    // W2's cosignatures relabelled as W1's (name and key ID): the signature is still W2's.
    let w1_id = w1.vkey().split('+').nth(1).unwrap().to_string();
    let relabelled: Vec<String> =
        witness::read_cosignatures(&fs::read_to_string(&a_cosignatures).unwrap())
            .unwrap()
            .into_iter()
            .map(|mut n| {
                let (name, sig) = n.signatures.last_mut().unwrap();
                *name = w1.name.clone();
                sig[..4].copy_from_slice(&u32::from_str_radix(&w1_id, 16).unwrap().to_be_bytes());
                format!("{}\n", n.text())
            })
            .collect();
    text.push_str(&relabelled.concat());
    fs::write(&a_cosignatures, text).unwrap();

    let r = verify(a.path(), std::slice::from_ref(&w1), Coverage::Full);
    assert!(!r.valid);
    assert!(
        reasons(&r).contains(&format!(
            "witness {} has cosigned no checkpoint of this log",
            w1.name
        )),
        "{}",
        reasons(&r)
    );
    assert!(r.witnessed.unwrap().witnesses[0].cosigned.is_none());
    let r = verify(a.path(), std::slice::from_ref(&w2), Coverage::Full);
    assert!(
        r.valid,
        "W2's own cosignatures still count: {}",
        reasons(&r)
    );
    let r = verify(a.path(), &[w1, w2], Coverage::Full);
    assert!(!r.valid, "every named witness is required");
}

#[test]
fn engine_bs_checkpoints_are_refused_by_a_witness_that_follows_a() {
    let (a, b, w) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    write(a.path(), 2);
    write(b.path(), 2);
    let key = w.path().join("w.key");
    run(&audit_dir(a.path()), &key, Some(log_key(a.path()))).unwrap();
    let e = run(&audit_dir(b.path()), &key, None).unwrap_err();
    assert!(
        matches!(e, WitnessError::BadSignature { index: 1, .. }),
        "{e}"
    );
    let e = run(&audit_dir(b.path()), &key, Some(log_key(b.path()))).unwrap_err();
    assert!(matches!(e, WitnessError::LogKeyChanged { .. }), "{e}");
    assert!(!audit_dir(b.path()).join("cosignatures").exists());
}

#[test]
fn configured_witnesses_are_validated_and_shown_in_status_with_what_they_cosigned() {
    let a = tempfile::tempdir().unwrap();
    let w = tempfile::tempdir().unwrap();
    write(a.path(), 2);
    let report = run(
        &audit_dir(a.path()),
        &w.path().join("w.key"),
        Some(log_key(a.path())),
    )
    .unwrap();
    let other =
        witness::CosignerKey::load_or_create(&w.path().join("other.key"), Some("other.example/w"))
            .unwrap()
            .vkey();
    let mut cfg = config();
    cfg["audit"]["witnesses"] = json!([report.witness, other]);
    let e = engine(a.path(), &cfg);
    let status = serde_json::to_value(e.status()).unwrap();
    let shown = &status["audit"]["witnesses"];
    assert_eq!(shown[0]["key"], json!(report.witness));
    assert_eq!(shown[0]["cosigned"]["size"], json!(report.size));
    assert_eq!(shown[1]["name"], json!("other.example/w"));
    assert_eq!(shown[1]["cosigned"], Value::Null);
    drop(e);

    let log_key_text = log_signer(a.path()).public_key();
    for (i, bad) in [
        json!(["nope"]),
        json!([report.witness, log_key_text]),
        json!([report.witness, report.witness]),
    ]
    .into_iter()
    .enumerate()
    {
        cfg["audit"]["witnesses"] = bad;
        let err = GovernanceEngine::try_new(
            &cfg,
            &EngineOptions {
                state_dir: Some(a.path().to_path_buf()),
                ..Default::default()
            },
        )
        .err()
        .expect("rejected");
        let at = if i == 0 {
            "audit.witnesses[0]"
        } else {
            "audit.witnesses[1]"
        };
        assert!(err.to_string().contains(at), "{err}");
    }
}
