//! Retention (`audit.retentionDays`): whole old days are deleted, never the file holding the
//! chain head, and what they held stays vouched for by `pruned.json`.

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

    pub(super) fn prune(&mut self, old: &[PathBuf]) -> Result<(), String> {
        let path = self.opts.dir.join("pruned.json");
        let previous: Option<Pruned> = store::read_json(&path);
        let mut frontier = previous
            .as_ref()
            .and_then(|p| p.frontier())
            .unwrap_or_default();
        let mut last_hash = previous
            .map(|p| p.last_hash)
            .unwrap_or_else(|| store::GENESIS.to_string());
        for file in old {
            let bytes = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            for l in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                let (hash, _) = line::decode(l).map_err(|e| format!("{}: {e}", file.display()))?;
                frontier.push(hash);
                last_hash = hex(&hash);
            }
        }
        let pruned = Pruned {
            through: frontier.size,
            last_hash,
            frontier: frontier.nodes.iter().map(hex).collect(),
        };
        let bytes = serde_json::to_vec_pretty(&pruned).map_err(|e| e.to_string())?;
        store::write_atomic(&path, &bytes)?;
        let names: Vec<String> = old
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect();
        for file in old {
            fs::remove_file(file).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        let details = json!({ "prunedThroughSeq": pruned.through, "files": names, "retentionDays": self.opts.retention_days });
        self.append_logged(AuditRecord::event(
            AuditVerdict::Retention,
            details,
            crate::time::now_ms(),
        ));
        Ok(())
    }
}
