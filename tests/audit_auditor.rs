//! What an outside auditor holding the public key can rely on (issue 15): no log passes without
//! a checkpoint, a tail no checkpoint covers is not vouched for, a crash's tail is signed at the
//! next start, a saved checkpoint proves later logs extend it even against the real key, and
//! records may only be missing when retention announced their removal in the chain.

use openclaw_governance::audit::checkpoint::{self, VerifierKey};
use openclaw_governance::audit::consistency::consistency;
use openclaw_governance::audit::line;
use openclaw_governance::audit::merkle::{self, hex};
use openclaw_governance::audit::store::{LogData, Pruned};
use openclaw_governance::audit::verify::{verify_with, Coverage, Options, VerifyReport};
use openclaw_governance::{EngineOptions, GovernanceEngine};
use serde_json::{json, Value};
use std::path::Path;

mod common;
use common::trail::{
    check, frontier_of, rechain, record_values, request, resign, signer, write_log,
};

fn verify_as(
    data: &LogData,
    pubkey: &str,
    coverage: Coverage,
    since: Option<&str>,
) -> VerifyReport {
    let key = VerifierKey::parse(pubkey).unwrap();
    verify_with(
        data,
        &Options {
            key: Some(&key),
            coverage,
            since,
            ..Options::default()
        },
    )
}

fn reasons(r: &VerifyReport) -> String {
    r.problems
        .iter()
        .map(|p| p.reason.as_str())
        .collect::<Vec<_>>()
        .join(" | ")
}

fn newest_note(data: &LogData) -> String {
    checkpoint::parse_notes(&data.checkpoints)
        .unwrap()
        .last()
        .unwrap()
        .text()
}

fn engine_on(dir: &Path, audit: Value) -> GovernanceEngine {
    let opts = EngineOptions {
        state_dir: Some(dir.to_path_buf()),
        ..Default::default()
    };
    GovernanceEngine::try_new(
        &json!({ "audit": audit, "trust": { "defaults": { "main": 75 } } }),
        &opts,
    )
    .unwrap()
}

/// Turns the first deny into an allow, as someone hiding a refused action would.
fn deny_to_allow(v: &mut Value) {
    if v["verdict"] == "deny" {
        v["verdict"] = json!("allow");
    }
}

#[test]
fn removing_the_checkpoints_and_rewriting_a_deny_fails_with_the_key_pinned() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 6);
    let data = LogData::read(&dir).unwrap();
    assert!(check(&data, &pubkey).valid);
    let mut forged = rechain(&data, deny_to_allow);
    forged.checkpoints.clear();
    for coverage in [Coverage::Full, Coverage::AllowTail] {
        let r = verify_as(&forged, &pubkey, coverage, None);
        assert!(!r.valid, "{coverage:?}");
        assert!(
            reasons(&r).contains("no signed checkpoint"),
            "{}",
            reasons(&r)
        );
    }
}

#[test]
fn records_after_the_newest_checkpoint_fail_unless_the_tail_is_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 6);
    let mut data = LogData::read(&dir).unwrap();
    let r = check(&data, &pubkey);
    assert!(
        r.valid && r.uncovered == 0,
        "a clean stop leaves nothing uncovered: {r:?}"
    );
    // An appended record, correctly chained: nothing but a checkpoint could tell.
    let records = record_values(&data);
    let last = records.last().unwrap();
    let mut extra = last.clone();
    extra["seq"] = json!(last["seq"].as_u64().unwrap() + 1);
    extra["prevHash"] = json!(hex(
        &data.leaves().unwrap().hashes().to_vec()[records.len() - 1]
    ));
    extra["verdict"] = json!("allow");
    let (_, bytes) = line::encode(&serde_json::to_vec(&extra).unwrap());
    data.files.last_mut().unwrap().1.extend_from_slice(&bytes);
    let r = check(&data, &pubkey);
    assert!(!r.valid);
    assert!(
        reasons(&r).contains("1 records after the last checkpoint"),
        "{}",
        reasons(&r)
    );
    let r = verify_as(&data, &pubkey, Coverage::AllowTail, None);
    assert!(r.valid, "{}", reasons(&r));
    assert_eq!(r.uncovered, 1);
}

#[test]
fn a_crash_tail_is_signed_by_the_next_start_which_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let audit = json!({ "flushIntervalMs": 1, "checkpoint": { "everyRecords": 1000, "everySeconds": 3600 } });
    let crashed = engine_on(tmp.path(), audit.clone());
    for i in 0..5 {
        crashed.evaluate(&request(i, "ls"));
    }
    crashed.flush().unwrap();
    // No shutdown: the process died with five durable records and no checkpoint over them.
    std::mem::forget(crashed);
    let dir = tmp.path().join("governance/audit");
    let pubkey = signer(tmp.path()).public_key();
    let r = check(&LogData::read(&dir).unwrap(), &pubkey);
    assert!(
        !r.valid && reasons(&r).contains("no signed checkpoint"),
        "{}",
        reasons(&r)
    );

    let next = engine_on(tmp.path(), audit);
    next.flush().unwrap();
    let data = LogData::read(&dir).unwrap();
    let notes = checkpoint::parse_notes(&data.checkpoints).unwrap();
    let first = checkpoint::open_unchecked(&notes[0]).unwrap();
    assert_eq!(first.recovered, Some(5), "{first:?}");
    assert!(first.size >= 5);
    drop(next);
    let r = check(&LogData::read(&dir).unwrap(), &pubkey);
    assert!(r.valid, "{}", reasons(&r));
}

#[test]
fn a_crash_between_fsync_and_saving_the_state_is_signed_by_the_next_start_too() {
    // The saved chain state trails the log when a writer dies after fsyncing records and before
    // saving the state; the next start reads those records as another writer's and must still
    // sign them at once rather than leave them uncovered until its first periodic checkpoint.
    let tmp = tempfile::tempdir().unwrap();
    let audit = json!({ "flushIntervalMs": 1, "checkpoint": { "everyRecords": 1000, "everySeconds": 3600 } });
    let dir = tmp.path().join("governance/audit");
    let crashed = engine_on(tmp.path(), audit.clone());
    crashed.evaluate(&request(0, "ls"));
    crashed.checkpoint().unwrap();
    let state_at_checkpoint = std::fs::read(dir.join("chain-state.json")).unwrap();
    for i in 1..6 {
        crashed.evaluate(&request(i, "ls"));
    }
    crashed.flush().unwrap();
    std::mem::forget(crashed);
    std::fs::write(dir.join("chain-state.json"), state_at_checkpoint).unwrap();

    let next = engine_on(tmp.path(), audit);
    next.flush().unwrap();
    let pubkey = signer(tmp.path()).public_key();
    let r = check(&LogData::read(&dir).unwrap(), &pubkey);
    assert!(r.valid, "{}", reasons(&r));
    let data = LogData::read(&dir).unwrap();
    let notes = checkpoint::parse_notes(&data.checkpoints).unwrap();
    let newest = checkpoint::open_unchecked(notes.last().unwrap()).unwrap();
    assert_eq!(newest.recovered, Some(5), "{newest:?}");
}

#[test]
fn every_checkpoint_carries_a_proof_that_it_extends_the_previous_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 7);
    // A second run continues the log, restoring where its proofs start.
    let e = engine_on(
        tmp.path(),
        json!({ "flushIntervalMs": 1, "checkpoint": { "everyRecords": 2 } }),
    );
    for i in 0..3 {
        e.evaluate(&request(i, "ls"));
        e.flush().unwrap();
    }
    drop(e);
    let data = LogData::read(&dir).unwrap();
    let cps: Vec<_> = checkpoint::parse_notes(&data.checkpoints)
        .unwrap()
        .iter()
        .map(|n| checkpoint::open_unchecked(n).unwrap())
        .collect();
    assert!(cps.len() >= 5);
    for pair in cps.windows(2) {
        let link = pair[1]
            .link
            .as_ref()
            .expect("every checkpoint after the first is linked");
        assert_eq!(link.from, pair[0].size);
        assert!(merkle::verify_consistency(
            link.from,
            pair[1].size,
            &pair[0].root_hash,
            &pair[1].root_hash,
            &link.proof
        ));
    }
    assert!(check(&data, &pubkey).valid);
    // A link whose proof was altered, signed with the real key, is refused.
    let key = signer(tmp.path());
    let mut bad = cps[3].clone();
    let link = bad.link.as_mut().unwrap();
    link.proof[0][0] ^= 1;
    let mut forged = data.clone();
    let notes = checkpoint::parse_notes(&data.checkpoints).unwrap();
    forged.checkpoints = notes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if i == 3 {
                format!("{}\n", key.sign(&bad))
            } else {
                format!("{}\n", n.text())
            }
        })
        .collect();
    let r = check(&forged, &pubkey);
    assert!(
        reasons(&r).contains("consistency proof from size"),
        "{}",
        reasons(&r)
    );
}

#[test]
fn a_saved_checkpoint_catches_a_history_rewritten_and_resigned_with_the_real_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 6);
    let saved = newest_note(&LogData::read(&dir).unwrap());
    let e = engine_on(tmp.path(), json!({ "flushIntervalMs": 1 }));
    for i in 0..4 {
        e.evaluate(&request(i, "cat"));
    }
    drop(e);
    let data = LogData::read(&dir).unwrap();
    let r = verify_as(&data, &pubkey, Coverage::Full, Some(&saved));
    assert!(r.valid, "{}", reasons(&r));
    assert_eq!(r.since.as_ref().unwrap().proven_by, "records");
    let newest = newest_note(&data);
    let proof = consistency(
        &data,
        &saved,
        &newest,
        Some(&VerifierKey::parse(&pubkey).unwrap()),
    )
    .unwrap();
    assert!(!proof["consistencyProof"].as_array().unwrap().is_empty());

    // The thief's rewrite: a deny turned into an allow, the chain and every checkpoint redone.
    let key = signer(tmp.path());
    let mut forged = rechain(&data, deny_to_allow);
    forged.checkpoints = resign(&forged, &key);
    let plain = check(&forged, &pubkey);
    assert!(
        plain.valid,
        "without a saved checkpoint the forgery passes: {}",
        reasons(&plain)
    );
    let r = verify_as(&forged, &pubkey, Coverage::Full, Some(&saved));
    assert!(!r.valid);
    assert!(
        reasons(&r).contains("rewritten before it"),
        "{}",
        reasons(&r)
    );
    let err = consistency(&forged, &saved, &newest_note(&forged), None).unwrap_err();
    assert!(err.contains("does not match the old checkpoint"), "{err}");
    // A saved note from another log, or altered, is refused too.
    let altered = saved.replacen("\n6\n", "\n5\n", 1);
    let r = verify_as(&data, &pubkey, Coverage::Full, Some(&altered));
    assert!(
        !r.valid && reasons(&r).contains("does not verify"),
        "{}",
        reasons(&r)
    );
}

fn aged_log(dir: &Path, ages_days: &[f64]) {
    let day = 86_400_000.0;
    let now = openclaw_governance::time::now_ms() as f64;
    let e = engine_on(
        dir,
        json!({ "flushIntervalMs": 1, "retentionDays": 30, "checkpoint": { "everyRecords": 1 } }),
    );
    for (i, age) in ages_days.iter().enumerate() {
        let mut r = request(i, "ls");
        r.timestamp = Some(now - age * day);
        e.evaluate(&r);
        e.flush().unwrap();
    }
}

#[test]
fn retention_is_announced_and_signed_before_files_go_and_a_saved_checkpoint_still_proves() {
    let tmp = tempfile::tempdir().unwrap();
    aged_log(tmp.path(), &[200.0, 100.0, 0.0]);
    let dir = tmp.path().join("governance/audit");
    // The auditor saved the checkpoint over the first record, which retention will remove.
    let before = LogData::read(&dir).unwrap();
    let saved = checkpoint::parse_notes(&before.checkpoints).unwrap()[0].text();
    assert!(saved.contains("\n1\n"), "{saved}");
    let e = engine_on(
        tmp.path(),
        json!({ "flushIntervalMs": 1, "retentionDays": 30 }),
    );
    e.flush().unwrap();
    drop(e);
    let data = LogData::read(&dir).unwrap();
    let pubkey = signer(tmp.path()).public_key();
    let r = check(&data, &pubkey);
    assert!(r.valid, "{}", reasons(&r));
    assert_eq!(r.first_seq, 2);
    let ret = r.retention.as_ref().expect("the announcing record");
    let d = &ret["details"];
    assert_eq!(d["prunedThroughSeq"], 2);
    assert!(
        d["lastPrunedTimestamp"].as_i64().unwrap() + 30 * 86_400_000
            <= ret["timestamp"].as_i64().unwrap()
    );
    // The saved checkpoint's records are gone; the signed proofs still lead from it.
    let r = verify_as(&data, &pubkey, Coverage::Full, Some(&saved));
    assert!(r.valid, "{}", reasons(&r));
    assert_eq!(r.since.as_ref().unwrap().proven_by, "proofs");
}

#[test]
fn records_dropped_with_a_handmade_pruned_json_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 8);
    let data = LogData::read(&dir).unwrap();
    let cut = 4;
    let leaves = data.leaves().unwrap().hashes().to_vec();
    let f = frontier_of(&data, cut);
    let mut forged = data.clone();
    let kept: Vec<&[u8]> = data.files[0]
        .1
        .split(|c| *c == b'\n')
        .filter(|l| !l.is_empty())
        .skip(cut)
        .collect();
    forged.files[0].1 = kept
        .iter()
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    forged.pruned = Some(Pruned {
        through: cut as u64,
        last_hash: hex(&leaves[cut - 1]),
        frontier: f.nodes.iter().map(hex).collect(),
    });
    let r = check(&forged, &pubkey);
    assert!(!r.valid);
    assert!(
        reasons(&r).contains("no governance.retention record"),
        "{}",
        reasons(&r)
    );
}

#[test]
fn a_retention_record_claiming_a_longer_period_than_it_kept_fails_even_resigned() {
    let tmp = tempfile::tempdir().unwrap();
    aged_log(tmp.path(), &[200.0, 100.0, 0.0]);
    let e = engine_on(
        tmp.path(),
        json!({ "flushIntervalMs": 1, "retentionDays": 30 }),
    );
    e.flush().unwrap();
    drop(e);
    let dir = tmp.path().join("governance/audit");
    let data = LogData::read(&dir).unwrap();
    // The record now says a year was kept, though records 100 days old were removed.
    let mut forged = rechain(&data, |v| {
        if v["verdict"] == "governance.retention" {
            v["details"]["retentionDays"] = json!(365);
        }
    });
    forged.checkpoints = resign(&forged, &signer(tmp.path()));
    let r = check(&forged, &signer(tmp.path()).public_key());
    assert!(!r.valid);
    assert!(
        reasons(&r).contains("younger than the retention period"),
        "{}",
        reasons(&r)
    );
}
