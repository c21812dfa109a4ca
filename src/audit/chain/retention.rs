//! Retention (`audit.retentionDays`): whole old days are deleted, never the file holding the
//! chain head; what they held stays vouched for by `pruned.json`, and the chain itself says
//! that they went, when and why (checked by `verify`).

use super::Chain;
use crate::audit::line;
use crate::audit::merkle::hex;
use crate::audit::record::{AuditRecord, AuditVerdict};
use crate::audit::store::{self, Pruned};
use serde_json::json;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

impl Chain {
    /// Deletes daily files older than `retention_days`, never the file holding the chain head.
    /// What they held stays vouched for by `pruned.json` (their Merkle frontier and last hash).
    pub(super) fn apply_retention(&mut self) {
        self.last_retention = Some(Instant::now());
        let today = self.day_of(crate::time::now_ms());
        let Some(cutoff) = chrono::NaiveDate::parse_from_str(&today, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.checked_sub_days(chrono::Days::new(self.opts.retention_days)))
            .map(|d| format!("{}.jsonl", d.format("%Y-%m-%d")))
        else {
            return;
        };
        let mut files = store::daily_files(&self.opts.dir);
        files.pop(); // the head file stays
        let old: Vec<PathBuf> = files
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n < cutoff.as_str())
            })
            .collect();
        if old.is_empty() {
            return;
        }
        if let Err(e) = self.prune(&old) {
            self.fail(&format!("retention: {e}"));
        }
    }

    /// Announces the prune in the chain (a `governance.retention` record saying how far, the
    /// pruned tree's root and last hash, the newest removed record's time) and signs a
    /// checkpoint over it before any file goes, so a verifier can tell retention from deletion.
    pub(super) fn prune(&mut self, old: &[PathBuf]) -> Result<(), String> {
        let path = self.opts.dir.join("pruned.json");
        let previous: Option<Pruned> = store::read_json(&path);
        let mut frontier = previous
            .as_ref()
            .and_then(|p| p.frontier())
            .unwrap_or_default();
        let mut last = previous.map(|p| (p.last_hash, 0));
        for file in old {
            let bytes = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            for l in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                let (hash, canonical) =
                    line::decode(l).map_err(|e| format!("{}: {e}", file.display()))?;
                frontier.push(hash);
                last = Some((hex(&hash), timestamp_of(&canonical)));
            }
        }
        let (last_hash, newest) = last.unwrap_or_else(|| (store::GENESIS.to_string(), 0));
        let pruned = Pruned {
            through: frontier.size,
            last_hash,
            frontier: frontier.nodes.iter().map(hex).collect(),
        };
        let names: Vec<String> = old
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect();
        let details = json!({
            "prunedThroughSeq": pruned.through,
            "files": names,
            "retentionDays": self.opts.retention_days,
            "lastPrunedTimestamp": newest,
            "prunedRoot": hex(&frontier.root()),
            "lastHash": pruned.last_hash,
        });
        let now = crate::time::now_ms();
        self.append(AuditRecord::event(AuditVerdict::Retention, details, now))?;
        self.write_out();
        self.sync();
        self.checkpoint();
        if self.state.last_checkpoint_size != self.state.seq {
            return Err(
                "the checkpoint over the retention record was not written; no file removed".into(),
            );
        }
        let bytes = serde_json::to_vec_pretty(&pruned).map_err(|e| e.to_string())?;
        store::write_atomic(&path, &bytes)?;
        for file in old {
            fs::remove_file(file).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        Ok(())
    }
}

/// A record's `timestamp` (ms), 0 when it has none.
fn timestamp_of(canonical: &[u8]) -> i64 {
    #[derive(serde::Deserialize)]
    struct Ts {
        #[serde(default)]
        timestamp: i64,
    }
    serde_json::from_slice::<Ts>(canonical).map_or(0, |t| t.timestamp)
}
