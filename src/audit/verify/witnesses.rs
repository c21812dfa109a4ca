//! `audit verify --witness-pubkey`: each named witness must have cosigned a checkpoint of this
//! log (its body byte for byte one of the notes in `checkpoints`, whose roots the scan checked
//! against the records), and records after what every witness cosigned are not covered.

use super::{Coverage, Options, Problem};
use crate::audit::checkpoint::{self, SignedNote};
use crate::audit::store::LogData;
use crate::audit::witness::{self, Cosigned};
use serde::Serialize;
use std::collections::HashMap;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Witnessed {
    pub witnesses: Vec<WitnessCover>,
    /// The log size every named witness has cosigned (the smallest of their newest).
    pub covered: u64,
    /// Records after that: a failure unless the tail is allowed.
    pub uncovered: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WitnessCover {
    pub name: String,
    pub key: String,
    /// The newest checkpoint of this log it cosigned; `None`: none.
    pub cosigned: Option<Cosigned>,
}

fn problem(reason: String) -> Problem {
    Problem::in_file("cosignatures", reason)
}

pub(super) fn check(
    data: &LogData,
    opts: &Options,
    records: u64,
    first_seq: u64,
    problems: &mut Vec<Problem>,
) -> Option<Witnessed> {
    if opts.witnesses.is_empty() {
        return None;
    }
    let log_notes = checkpoint::parse_notes(&data.checkpoints).unwrap_or_default();
    let by_body: HashMap<&str, &SignedNote> =
        log_notes.iter().map(|n| (n.body.as_str(), n)).collect();
    // A cosignature counts on a note of this log's checkpoints file, signed by the pinned key.
    let of_log = |n: &SignedNote| {
        by_body
            .get(n.body.as_str())
            .is_some_and(|note| opts.key.is_none_or(|k| checkpoint::open(note, k).is_ok()))
    };
    let notes = witness::read_cosignatures(&data.cosignatures).unwrap_or_else(|e| {
        problems.push(problem(e));
        Vec::new()
    });
    let witnesses: Vec<WitnessCover> = opts
        .witnesses
        .iter()
        .map(|w| WitnessCover {
            name: w.name.clone(),
            key: w.vkey(),
            cosigned: witness::newest_cosigned(&notes, w, of_log),
        })
        .collect();
    for w in witnesses.iter().filter(|w| w.cosigned.is_none()) {
        problems.push(problem(format!(
            "witness {} has cosigned no checkpoint of this log",
            w.name
        )));
    }
    let sizes: Option<Vec<u64>> = witnesses
        .iter()
        .map(|w| w.cosigned.map(|c| c.size))
        .collect();
    let covered = sizes
        .as_ref()
        .and_then(|s| s.iter().min().copied())
        .unwrap_or(0);
    let uncovered = records.saturating_sub(covered.max(first_seq));
    if sizes.is_some() && uncovered > 0 && opts.coverage == Coverage::Full {
        problems.push(problem(format!(
            "{uncovered} records after size {covered} are cosigned by no named witness (the newest checkpoint they all cosigned): a rewrite of them would go unnoticed (--allow-tail to accept it)"
        )));
    }
    Some(Witnessed {
        witnesses,
        covered,
        uncovered,
    })
}
