//! Records before `firstSeq` may only be missing because retention removed them, and said so
//! in the chain first: a `governance.retention` record naming how far it pruned, the pruned
//! tree's root and last hash, and the newest removed record's time, under a checkpoint signed
//! before any file went.

use super::checkpoints::Log;
use super::{Problem, RetentionRecord};
use crate::audit::merkle::hex;
use crate::audit::store::LogData;
use serde_json::{json, Value};

const DAY_MS: i64 = 86_400_000;

fn problem(reason: String) -> Problem {
    Problem::in_file("pruned.json", reason)
}

/// Checks the announcement of the prune `pruned.json` describes; returns it for the report.
pub(super) fn check(
    data: &LogData,
    records: &[RetentionRecord],
    log: &Log,
    problems: &mut Vec<Problem>,
) -> Option<Value> {
    let pruned = data.pruned.as_ref().filter(|p| p.through > 0)?;
    let through = pruned.through;
    let Some(r) = records
        .iter()
        .rev()
        .find(|r| r.details["prunedThroughSeq"].as_u64() == Some(through))
    else {
        problems.push(problem(format!("records before {through} are gone, but no governance.retention record in the log announces their removal: removed outside retention")));
        return None;
    };
    if let Err(why) = announced_honestly(r, pruned, log) {
        problems.push(problem(format!(
            "the retention record at seq {}: {why}",
            r.seq
        )));
    }
    Some(json!({ "seq": r.seq, "timestamp": r.timestamp, "details": r.details }))
}

fn announced_honestly(
    r: &RetentionRecord,
    pruned: &crate::audit::store::Pruned,
    log: &Log,
) -> Result<(), String> {
    let d = &r.details;
    let root = pruned.frontier().map(|f| hex(&f.root()));
    if d["lastHash"].as_str() != Some(pruned.last_hash.as_str()) {
        return Err("its lastHash is not pruned.json's (a different prune)".into());
    }
    if d["prunedRoot"].as_str() != root.as_deref() {
        return Err("its prunedRoot is not the root of pruned.json's frontier".into());
    }
    let (Some(days), Some(newest)) = (
        d["retentionDays"].as_i64(),
        d["lastPrunedTimestamp"].as_i64(),
    ) else {
        return Err("it does not say the retention period and the newest removed record's time (written by an older version, or forged)".into());
    };
    if newest + days * DAY_MS > r.timestamp {
        return Err(format!("it removed records up to {} while retentionDays is {days}: younger than the retention period", crate::audit::record::iso_millis(newest)));
    }
    if !log.notes.iter().any(|c| c.size > r.seq) {
        return Err(
            "no signed checkpoint covers it (a prune signs one before removing files)".into(),
        );
    }
    Ok(())
}
