//! The checkpoints against the log: each one's root at its size, their order, the consistency
//! proof each carries, what no checkpoint covers, and a checkpoint the auditor saved earlier.

use super::{Coverage, Problem};
use crate::audit::checkpoint::{self, Checkpoint, VerifierKey};
use crate::audit::merkle::{self, Hash};
use serde::Serialize;
use std::collections::HashMap;

/// What the scan learnt, seen from the checkpoints.
pub(super) struct Log<'a> {
    pub notes: &'a [Checkpoint],
    /// The log's Merkle roots at the sizes asked for.
    pub roots: &'a HashMap<u64, Hash>,
    pub records: u64,
    pub first_seq: u64,
}

/// The outcome of `--since`: the saved checkpoint and how the log was shown to extend it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Since {
    pub size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
    /// `records` (its root recomputed from the records), `proofs` (retention removed them: the
    /// signed consistency proofs from it to the newest checkpoint) or `none` (not shown).
    pub proven_by: &'static str,
}

fn problem(reason: String) -> Problem {
    Problem::in_file("checkpoints", reason)
}

/// The saved note, signature checked when a key is pinned.
pub(super) fn open_saved(text: &str, key: Option<&VerifierKey>) -> Result<Checkpoint, String> {
    let notes = checkpoint::parse_notes(text)?;
    let [note] = &notes[..] else {
        return Err(format!(
            "a saved checkpoint is one signed note ({} found)",
            notes.len()
        ));
    };
    match key {
        Some(k) => checkpoint::open(note, k),
        None => checkpoint::open_unchecked(note),
    }
}

impl Log<'_> {
    pub fn check(&self, problems: &mut Vec<Problem>) {
        for (i, c) in self.notes.iter().enumerate() {
            self.check_one(i, c, problems);
            if let Err(e) = self.check_link(i, c) {
                problems.push(problem(format!("checkpoint {}: {e}", i + 1)));
            }
        }
    }

    fn check_one(&self, i: usize, c: &Checkpoint, problems: &mut Vec<Problem>) {
        let k = i + 1;
        if let Some(first) = self.notes.first() {
            if c.origin != first.origin {
                problems.push(problem(format!(
                    "checkpoint {k}: origin {} differs from {} (from another log)",
                    c.origin, first.origin
                )));
            }
        }
        if let Some(prev) = i.checked_sub(1).map(|j| &self.notes[j]) {
            if c.size < prev.size || c.timestamp < prev.timestamp {
                problems.push(problem(format!(
                    "checkpoint {k} (size {}, time {}) is older than checkpoint {} (size {}, time {}): replayed or reordered",
                    c.size, c.timestamp, k - 1, prev.size, prev.timestamp
                )));
            }
        }
        if c.size > self.records {
            problems.push(problem(format!(
                "log truncated: checkpoint {k} covers {} records but the log has {}",
                c.size, self.records
            )));
        } else if c.size < self.first_seq {
            // Retention removed those records; the pruned frontier cannot recompute older roots.
        } else if self.roots.get(&c.size) != Some(&c.root_hash) {
            problems.push(problem(format!(
                "checkpoint {k}: the log's Merkle root at size {} differs from the signed one",
                c.size
            )));
        }
    }

    /// The proof a checkpoint carries must link it to the earlier checkpoint it names: that
    /// chain is what a witness with only this file relies on.
    fn check_link(&self, i: usize, c: &Checkpoint) -> Result<(), String> {
        let Some(link) = &c.link else {
            return Ok(());
        };
        if link.from == 0 {
            return match link.proof.is_empty() {
                true => Ok(()),
                false => Err("a proof from the empty tree must be empty".into()),
            };
        }
        let base = self.notes[..i]
            .iter()
            .rev()
            .find(|n| n.size == link.from)
            .ok_or_else(|| {
                format!(
                    "its consistency proof starts at size {}, which no earlier checkpoint has",
                    link.from
                )
            })?;
        match merkle::verify_consistency(
            link.from,
            c.size,
            &base.root_hash,
            &c.root_hash,
            &link.proof,
        ) {
            true => Ok(()),
            false => Err(format!(
                "its consistency proof from size {} does not verify (history rewritten)",
                link.from
            )),
        }
    }

    /// Records after the newest checkpoint; a problem unless `coverage` allows them.
    pub fn check_coverage(&self, coverage: Coverage, problems: &mut Vec<Problem>) -> u64 {
        let covered = self.notes.iter().map(|c| c.size).max().unwrap_or(0);
        let uncovered = self.records.saturating_sub(covered.max(self.first_seq));
        let live = self.records > self.first_seq;
        match coverage {
            Coverage::Live => {}
            _ if self.notes.is_empty() && live => problems.push(problem(format!(
                "no signed checkpoint: nothing vouches for the {} records (checkpoints removed, or never written)",
                self.records - self.first_seq
            ))),
            Coverage::Full if uncovered > 0 => problems.push(problem(format!(
                "{uncovered} records after the last checkpoint (size {covered}) are covered by no signature: they could have been replaced or appended (--allow-tail to accept a live log's tail)"
            ))),
            _ => {}
        }
        uncovered
    }

    /// The log must extend `saved`: its root recomputed from the records, or, when retention
    /// removed them, the signed consistency proofs from it to the newest checkpoint.
    pub fn check_since(
        &self,
        saved: Result<Checkpoint, String>,
        problems: &mut Vec<Problem>,
    ) -> Since {
        let fail = |problems: &mut Vec<Problem>, size, timestamp, why: String| {
            problems.push(Problem::in_file("saved checkpoint", why));
            Since {
                size,
                timestamp,
                proven_by: "none",
            }
        };
        let s = match saved {
            Ok(s) => s,
            Err(e) => return fail(problems, 0, None, e),
        };
        let (size, ts) = (s.size, Some(s.timestamp));
        if let Some(first) = self.notes.first().filter(|f| f.origin != s.origin) {
            let why = format!("it is from log {}, this log is {}", s.origin, first.origin);
            return fail(problems, size, ts, why);
        }
        if size > self.records {
            let why = format!(
                "it covers {size} records but the log has {}: records were removed",
                self.records
            );
            return fail(problems, size, ts, why);
        }
        if size >= self.first_seq {
            return match self.roots.get(&size) == Some(&s.root_hash) {
                true => Since {
                    size,
                    timestamp: ts,
                    proven_by: "records",
                },
                false => {
                    let why = format!("the log's Merkle root at size {size} differs from the saved checkpoint's: the log was rewritten before it");
                    fail(problems, size, ts, why)
                }
            };
        }
        match self.linked_to_newest(&s) {
            Ok(()) => Since {
                size,
                timestamp: ts,
                proven_by: "proofs",
            },
            Err(why) => fail(problems, size, ts, why),
        }
    }

    /// Follows the consistency proofs the checkpoints carry from `saved` to the newest one.
    fn linked_to_newest(&self, saved: &Checkpoint) -> Result<(), String> {
        let mut proven: HashMap<u64, Hash> = HashMap::from([(saved.size, saved.root_hash)]);
        for c in self.notes {
            if let Some(root) = proven.get(&c.size) {
                if *root != c.root_hash {
                    return Err(format!("checkpoint at size {} has another root than the one proven from the saved checkpoint: the log was rewritten", c.size));
                }
                continue;
            }
            let Some(link) = &c.link else { continue };
            let Some(base) = proven.get(&link.from) else {
                continue;
            };
            if merkle::verify_consistency(link.from, c.size, base, &c.root_hash, &link.proof) {
                proven.insert(c.size, c.root_hash);
            }
        }
        match self.notes.last() {
            Some(last) if proven.contains_key(&last.size) => Ok(()),
            _ => Err(format!("retention removed the records up to {} and no chain of consistency proofs leads from the saved checkpoint (size {}) to the newest one", self.first_seq, saved.size)),
        }
    }
}
