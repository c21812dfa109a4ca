//! Tamper detection is the product: every way of editing a log must fail verification with a
//! message that says what and where.

use openclaw_governance::audit::checkpoint::{SignerKey, VerifierKey};
use openclaw_governance::audit::store::LogData;
use openclaw_governance::audit::verify::{verify, VerifyReport};
use openclaw_governance::{EngineOptions, GovernanceEngine};
use serde_json::{json, Value};
use std::path::Path;

mod common;
use common::records;
use common::trail::{check, request, write_log};

fn first_reason(r: &VerifyReport) -> String {
    r.problems
        .first()
        .map(|p| p.reason.clone())
        .unwrap_or_default()
}

fn lines(data: &LogData) -> Vec<Vec<u8>> {
    data.files[0]
        .1
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| l.to_vec())
        .collect()
}

fn with_lines(data: &LogData, lines: &[Vec<u8>]) -> LogData {
    let mut d = data.clone();
    d.files[0].1 = lines
        .iter()
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    d
}

#[test]
fn an_untouched_log_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 6);
    let data = LogData::read(&dir).unwrap();
    let r = check(&data, &pubkey);
    assert!(r.valid, "{:?}", r.problems);
    assert_eq!(r.records, 6);
    assert!(
        r.checkpoints >= 3,
        "a checkpoint every 2 records: {}",
        r.checkpoints
    );
    assert!(r.signatures_checked);
    assert_eq!(r.last_checkpoint.unwrap().size, 6);
}

#[test]
fn every_bit_flip_of_every_byte_is_detected() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 3);
    let data = LogData::read(&dir).unwrap();
    let key = VerifierKey::parse(&pubkey).unwrap();
    assert!(verify(&data, Some(&key)).valid);
    let log_len = data.files[0].1.len();
    for byte in 0..log_len {
        for bit in 0..8 {
            let mut d = data.clone();
            d.files[0].1[byte] ^= 1 << bit;
            assert!(
                !verify(&d, Some(&key)).valid,
                "log flip at byte {byte} bit {bit} went unnoticed"
            );
        }
    }
    let cps = data.checkpoints.as_bytes().to_vec();
    for byte in 0..cps.len() {
        for bit in 0..8 {
            let mut b = cps.clone();
            b[byte] ^= 1 << bit;
            let mut d = data.clone();
            d.checkpoints = String::from_utf8_lossy(&b).into_owned();
            assert!(
                !verify(&d, Some(&key)).valid,
                "checkpoint flip at byte {byte} bit {bit} went unnoticed"
            );
        }
    }
}

#[test]
fn deleted_duplicated_swapped_and_reordered_lines_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 6);
    let data = LogData::read(&dir).unwrap();
    let l = lines(&data);

    let mut deleted = l.clone();
    deleted.remove(2);
    let r = check(&with_lines(&data, &deleted), &pubkey);
    assert_eq!(r.problems[0].seq, Some(3));
    assert!(
        first_reason(&r).contains("seq 3 where 2 was expected (records missing before it)"),
        "{r:?}"
    );

    let mut dup = l.clone();
    dup.insert(3, l[2].clone());
    let r = check(&with_lines(&data, &dup), &pubkey);
    assert!(
        first_reason(&r).contains("seq 2 where 3 was expected (duplicated or out of order)"),
        "{r:?}"
    );

    let mut swapped = l.clone();
    swapped.swap(1, 4);
    let r = check(&with_lines(&data, &swapped), &pubkey);
    assert!(
        first_reason(&r).contains("seq 4 where 1 was expected"),
        "{r:?}"
    );
    assert_eq!(r.problems[0].line, Some(2));
    assert_eq!(
        r.problems[0].file.as_deref(),
        Some(data.files[0].0.as_str())
    );

    let mut reversed = l.clone();
    reversed.reverse();
    assert!(!check(&with_lines(&data, &reversed), &pubkey).valid);
}

#[test]
fn a_truncated_tail_is_caught_by_the_last_checkpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 6);
    let data = LogData::read(&dir).unwrap();
    let l = lines(&data);
    let r = check(&with_lines(&data, &l[..4]), &pubkey);
    assert!(
        r.problems
            .iter()
            .any(|p| p.reason.contains("log truncated: checkpoint")
                && p.reason.contains("covers 6 records but the log has 4")),
        "{r:?}"
    );
    // A cut in the middle of the last line.
    let mut d = data.clone();
    let len = d.files[0].1.len();
    d.files[0].1.truncate(len - 10);
    let r = check(&d, &pubkey);
    assert!(
        r.problems.iter().any(|p| p.reason.contains("no newline")),
        "{r:?}"
    );
}

#[test]
fn lines_spliced_from_another_log_break_the_chain() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (dir_a, pubkey) = write_log(a.path(), 4);
    let (dir_b, _) = write_log(b.path(), 4);
    let (data_a, data_b) = (
        LogData::read(&dir_a).unwrap(),
        LogData::read(&dir_b).unwrap(),
    );
    let mut l = lines(&data_a);
    l[2] = lines(&data_b)[2].clone();
    let r = check(&with_lines(&data_a, &l), &pubkey);
    assert!(
        first_reason(&r).contains("prevHash does not link to the previous record"),
        "{r:?}"
    );
    assert_eq!(r.problems[0].seq, Some(2));
    // Their checkpoints do not belong either.
    let mut d = data_a.clone();
    d.checkpoints.push_str(&data_b.checkpoints);
    let r = verify(&d, None);
    assert!(
        r.problems
            .iter()
            .any(|p| p.reason.contains("from another log")),
        "{r:?}"
    );
}

#[test]
fn a_replayed_older_checkpoint_is_detected() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 6);
    let data = LogData::read(&dir).unwrap();
    let first = data
        .checkpoints
        .split("\n\n")
        .take(2)
        .collect::<Vec<_>>()
        .join("\n\n")
        + "\n\n";
    let mut d = data.clone();
    d.checkpoints.push_str(&first);
    let r = check(&d, &pubkey);
    assert!(r.problems.iter().any(|p| p.reason.contains("is older than checkpoint") && p.reason.contains("replayed")), "{r:?}");
}

#[test]
fn a_signature_by_another_key_is_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _) = write_log(tmp.path(), 2);
    let other = SignerKey::load_or_create(&tmp.path().join("other.key")).unwrap();
    let r = check(&LogData::read(&dir).unwrap(), &other.public_key());
    assert!(!r.valid);
    assert!(
        first_reason(&r).contains("no signature by key openclaw-governance-"),
        "{r:?}"
    );
}

#[test]
fn a_forged_checkpoint_root_is_rejected_even_with_the_right_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, pubkey) = write_log(tmp.path(), 4);
    let data = LogData::read(&dir).unwrap();
    // Re-sign a checkpoint over a different history with the real key.
    let key =
        SignerKey::load_or_create(&tmp.path().join("governance/keys/audit-signing.key")).unwrap();
    let origin = openclaw_governance::audit::checkpoint::open_unchecked(
        &openclaw_governance::audit::checkpoint::parse_notes(&data.checkpoints).unwrap()[0],
    )
    .unwrap()
    .origin;
    let forged =
        openclaw_governance::audit::checkpoint::Checkpoint::new(&origin, 4, [7; 32], i64::MAX);
    let mut d = data.clone();
    d.checkpoints.push_str(&format!("{}\n", key.sign(&forged)));
    let r = check(&d, &pubkey);
    assert!(
        r.problems
            .iter()
            .any(|p| p.reason.contains("Merkle root at size 4 differs")),
        "{r:?}"
    );
}

fn engine_on(dir: &Path, extra: Value) -> GovernanceEngine {
    let mut config = json!({ "audit": { "flushIntervalMs": 1 } });
    if let (Some(c), Some(e)) = (config.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            c.insert(k.clone(), v.clone());
        }
    }
    GovernanceEngine::try_new(
        &config,
        &EngineOptions {
            state_dir: Some(dir.to_path_buf()),
            ..Default::default()
        },
    )
    .unwrap()
}

#[test]
fn a_torn_last_line_is_moved_aside_and_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    {
        let e = engine_on(tmp.path(), json!({}));
        e.evaluate(&request(0, "ls"));
        e.flush().unwrap();
    }
    let audit = tmp.path().join("governance/audit");
    let file = openclaw_governance::audit::store::daily_files(&audit)
        .pop()
        .unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend_from_slice(b"{\"hash\":\"abc");
    std::fs::write(&file, &bytes).unwrap();
    {
        let e = engine_on(tmp.path(), json!({}));
        e.evaluate(&request(1, "ls"));
    }
    let aside: Vec<_> = std::fs::read_dir(&audit)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".torn-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(aside[0].path()).unwrap(), b"{\"hash\":\"abc");
    let recs = records(tmp.path());
    let torn = recs
        .iter()
        .find(|r| r["verdict"] == "governance.chain.torn")
        .expect("torn event");
    assert_eq!(torn["details"]["bytes"], 12);
    let r = verify(&LogData::read(&audit).unwrap(), None);
    assert!(r.valid, "{:?}", r.problems);
    assert_eq!(r.torn_lines_recovered, 1);
}

#[test]
fn engines_sharing_a_directory_write_one_chain_that_verifies() {
    // A gateway and an `openclaw agent --local` run (or an engine rebuilt after a config edit)
    // on one state directory: neither may drop records, and together they write one chain.
    let tmp = tempfile::tempdir().unwrap();
    let config = json!({
        "audit": { "flushIntervalMs": 1, "checkpoint": { "everyRecords": 3 } },
        "policies": [{ "id": "p", "rules": [{ "id": "rm", "conditions": [{ "type": "tool", "params": { "command": { "startsWith": "rm" } } }],
            "effect": { "action": "deny", "reason": "no" } }] }]
    });
    let opts = EngineOptions {
        state_dir: Some(tmp.path().to_path_buf()),
        ..Default::default()
    };
    let first = GovernanceEngine::try_new(&config, &opts).unwrap();
    let second = GovernanceEngine::try_new(&config, &opts).expect("a second writer is welcome");
    assert!(second.status().audit.enabled);
    for i in 0..20 {
        let e = if i % 3 == 0 { &second } else { &first };
        // Blocks are durable before the call returns, from either engine.
        e.evaluate(&request(i, if i % 4 == 0 { "rm -rf" } else { "ls" }));
        if i % 5 == 0 {
            e.flush().unwrap();
        }
    }
    drop(first);
    drop(second);
    let audit = tmp.path().join("governance/audit");
    let key = SignerKey::load_or_create(&tmp.path().join("governance/keys/audit-signing.key"))
        .unwrap()
        .public_key();
    let r = check(&LogData::read(&audit).unwrap(), &key);
    assert!(r.valid, "{:?}", r.problems);
    let commands: Vec<String> = records(tmp.path())
        .iter()
        .filter_map(|r| {
            r["context"]["toolParams"]["command"]
                .as_str()
                .map(String::from)
        })
        .collect();
    assert_eq!(
        commands.len(),
        20,
        "every evaluation of both engines is recorded once"
    );
    let last = r.last_checkpoint.expect("a final checkpoint");
    assert_eq!(
        last.size, r.records,
        "the last checkpoint covers every record"
    );
}

#[test]
fn a_line_another_writer_left_torn_is_moved_aside_by_the_next_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let e = engine_on(tmp.path(), json!({ "audit": { "flushIntervalMs": 1 } }));
    e.evaluate(&request(0, "ls"));
    e.flush().unwrap();
    // Another process died in the middle of its append.
    let audit = tmp.path().join("governance/audit");
    let file = openclaw_governance::audit::store::daily_files(&audit)
        .pop()
        .unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    std::io::Write::write_all(&mut f, b"{\"hash\":\"0123").unwrap();
    drop(f);
    e.evaluate(&request(1, "ls"));
    e.flush().unwrap();
    drop(e);
    let r = verify(&LogData::read(&audit).unwrap(), None);
    assert!(r.valid, "{:?}", r.problems);
    assert_eq!(r.torn_lines_recovered, 1);
    assert!(records(tmp.path())
        .iter()
        .any(|r| r["context"]["toolParams"]["command"] == "ls 1"));
}

#[test]
fn tampering_found_at_start_is_recorded_as_a_break_and_old_records_stay() {
    let tmp = tempfile::tempdir().unwrap();
    {
        let e = engine_on(tmp.path(), json!({}));
        for i in 0..3 {
            e.evaluate(&request(i, "ls"));
        }
    }
    let audit = tmp.path().join("governance/audit");
    let file = openclaw_governance::audit::store::daily_files(&audit)
        .pop()
        .unwrap();
    let edited = String::from_utf8(std::fs::read(&file).unwrap())
        .unwrap()
        .replacen("ls 1", "ls 9", 1);
    std::fs::write(&file, &edited).unwrap();
    let e = engine_on(tmp.path(), json!({}));
    assert!(
        e.take_logs()
            .iter()
            .any(|l| l.level == "error" && l.message.contains("chain break"))
            || {
                e.flush().unwrap();
                e.take_logs()
                    .iter()
                    .any(|l| l.level == "error" && l.message.contains("chain break"))
            }
    );
    e.flush().unwrap();
    let recs = records(tmp.path());
    assert!(
        String::from_utf8(std::fs::read(&file).unwrap())
            .unwrap()
            .starts_with(&edited),
        "old records are never edited"
    );
    let brk = recs
        .iter()
        .find(|r| r["verdict"] == "governance.chain.break")
        .expect("break recorded");
    assert!(brk["details"]["reason"]
        .as_str()
        .unwrap()
        .contains("record altered"));
    let r = verify(&LogData::read(&audit).unwrap(), None);
    assert!(!r.valid);
    assert_eq!(r.recorded_breaks.len(), 1);
}

#[test]
fn records_removed_from_the_end_are_noticed_at_start() {
    let tmp = tempfile::tempdir().unwrap();
    {
        let e = engine_on(
            tmp.path(),
            json!({ "audit": { "flushIntervalMs": 1, "verifyOnStartup": false } }),
        );
        for i in 0..4 {
            e.evaluate(&request(i, "ls"));
        }
    }
    let audit = tmp.path().join("governance/audit");
    let file = openclaw_governance::audit::store::daily_files(&audit)
        .pop()
        .unwrap();
    let text = String::from_utf8(std::fs::read(&file).unwrap()).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, kept).unwrap();
    let e = engine_on(
        tmp.path(),
        json!({ "audit": { "flushIntervalMs": 1, "verifyOnStartup": false } }),
    );
    e.flush().unwrap();
    let recs = records(tmp.path());
    let brk = recs
        .iter()
        .find(|r| r["verdict"] == "governance.chain.break")
        .expect("break recorded");
    assert!(brk["details"]["reason"]
        .as_str()
        .unwrap()
        .contains("records were removed from the end"));
    assert_eq!(
        brk["seq"], 2,
        "the new segment continues from the surviving head"
    );
}

#[test]
fn retention_prunes_old_days_and_the_rest_still_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let day = 86_400_000.0;
    let now = openclaw_governance::time::now_ms() as f64;
    {
        let e = engine_on(
            tmp.path(),
            json!({ "audit": { "flushIntervalMs": 1, "retentionDays": 30, "checkpoint": { "everyRecords": 1 } } }),
        );
        for (i, age) in [200.0, 100.0, 0.0].iter().enumerate() {
            let mut r = request(i, "ls");
            r.timestamp = Some(now - age * day);
            e.evaluate(&r);
            e.flush().unwrap();
        }
    }
    let audit = tmp.path().join("governance/audit");
    assert_eq!(
        openclaw_governance::audit::store::daily_files(&audit).len(),
        3
    );
    let e = engine_on(
        tmp.path(),
        json!({ "audit": { "flushIntervalMs": 1, "retentionDays": 30 } }),
    );
    e.flush().unwrap();
    drop(e);
    assert_eq!(
        openclaw_governance::audit::store::daily_files(&audit).len(),
        1,
        "the two old days are gone"
    );
    let recs = records(tmp.path());
    let ret = recs
        .iter()
        .find(|r| r["verdict"] == "governance.retention")
        .expect("retention recorded");
    assert_eq!(ret["details"]["prunedThroughSeq"], 2);
    let pubkey = SignerKey::load_or_create(&tmp.path().join("governance/keys/audit-signing.key"))
        .unwrap()
        .public_key();
    let r = check(&LogData::read(&audit).unwrap(), &pubkey);
    assert!(r.valid, "{:?}", r.problems);
    assert_eq!(r.first_seq, 2);
}
