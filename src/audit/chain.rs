//! The audit writer thread: redacts, serializes canonically, hashes, appends, fsyncs in groups
//! (at once for records someone waits on), signs checkpoints, verifies at start, applies retention.

use super::checkpoint::{Checkpoint, SignerKey, VerifierKey};
use super::line;
use super::merkle::{hex, Frontier};
use super::record::{AuditRecord, AuditVerdict};
use super::store::{self, ChainState, LogData, Pruned, CHECKPOINTS};
use super::verify;
use super::writer::{Ack, Message, Queue, WriterOptions, WriterStats};
use crate::config::AuditLevel;
use chrono::TimeZone;
use serde_json::{json, Value};
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the writer drains the buffer into the file (fsync follows `flush_interval`).
const DRAIN_EVERY: Duration = Duration::from_millis(100);
const DAY: Duration = Duration::from_secs(86_400);

/// Waits for work (or the drain tick) and swaps the queue with `spare` (an empty buffer that
/// keeps its capacity, so the evaluating side does not regrow one per batch).
fn take_batch(queue: &Queue, spare: Vec<Message>) -> Option<(Vec<Message>, bool)> {
    let guard = queue.items.lock().ok()?;
    let (mut guard, _) = queue
        .wake
        .wait_timeout_while(guard, DRAIN_EVERY, |(items, closed)| {
            items.is_empty() && !*closed
        })
        .ok()?;
    Some((std::mem::replace(&mut guard.0, spare), guard.1))
}

/// The writer thread's state.
pub(super) struct Chain {
    opts: WriterOptions,
    key: SignerKey,
    state: ChainState,
    frontier: Frontier,
    stats: Arc<WriterStats>,
    file: Option<(String, BufWriter<File>)>,
    dirty: bool,
    pending_acks: Vec<Ack>,
    last_sync: Instant,
    last_checkpoint: Instant,
    last_retention: Instant,
}

impl Chain {
    pub(super) fn new(
        opts: WriterOptions,
        key: SignerKey,
        state: ChainState,
        frontier: Frontier,
        stats: Arc<WriterStats>,
    ) -> Chain {
        let now = Instant::now();
        Chain {
            opts,
            key,
            state,
            frontier,
            stats,
            file: None,
            dirty: false,
            pending_acks: Vec::new(),
            last_sync: now,
            last_checkpoint: now,
            last_retention: now,
        }
    }

    pub(super) fn run(mut self, queue: &Queue, startup: Vec<AuditRecord>) {
        for event in startup {
            self.append_logged(event);
        }
        if self.opts.verify_on_startup {
            self.verify_existing();
        }
        self.apply_retention();
        self.sync();
        let mut spare = Vec::new();
        loop {
            let Some((mut batch, closed)) = take_batch(queue, spare) else {
                return;
            };
            let mut checkpoint_acks = Vec::new();
            for msg in batch.drain(..) {
                match msg {
                    Message::Checkpoint(ack) => checkpoint_acks.push(ack),
                    other => self.handle(other),
                }
            }
            spare = batch;
            if !checkpoint_acks.is_empty() {
                self.sign_now(checkpoint_acks);
            }
            // Group commit: one fsync for everything taken, at most every flush interval unless
            // someone waits for durability.
            if !self.pending_acks.is_empty()
                || self.last_sync.elapsed() >= self.opts.flush_interval
                || closed
            {
                self.sync();
                self.maybe_checkpoint(closed);
            }
            if self.last_retention.elapsed() >= DAY {
                self.apply_retention();
            }
            if closed {
                return;
            }
        }
    }

    fn handle(&mut self, msg: Message) {
        match msg {
            Message::Record(record, ack) => match (self.append(*record), ack) {
                (Ok(()), Some(ack)) => self.pending_acks.push(ack),
                (Ok(()), None) => {}
                (Err(e), ack) => {
                    self.fail(&e);
                    if let Some(ack) = ack {
                        let _ = ack.send(Err(e));
                    }
                }
            },
            Message::Flush(ack) | Message::Checkpoint(ack) => self.pending_acks.push(ack),
        }
    }

    fn append_logged(&mut self, record: AuditRecord) {
        if let Err(e) = self.append(record) {
            self.fail(&e);
        }
    }

    fn append(&mut self, mut record: AuditRecord) -> Result<(), String> {
        record.id = uuid::Uuid::new_v4().to_string();
        record.timestamp_iso = super::iso_millis(record.timestamp);
        record.controls = super::controls_for(&record.context.hook, record.verdict);
        record.seq = self.state.seq;
        record.prev_hash = std::mem::take(&mut self.state.last_hash);
        self.redact(&mut record);
        let canonical = canonical_bytes(&record, self.opts.level);
        let canonical = match canonical {
            Ok(c) => c,
            Err(e) => {
                self.state.last_hash = record.prev_hash;
                return Err(e);
            }
        };
        let (hash, bytes) = line::encode(&canonical);
        let day = self.day_of(record.timestamp);
        if let Err(e) = self
            .file_for(&day)
            .and_then(|f| f.write_all(&bytes).map_err(|e| e.to_string()))
        {
            self.state.last_hash = record.prev_hash;
            return Err(e);
        }
        self.dirty = true;
        self.frontier.push(hash);
        self.state.seq += 1;
        self.state.record_count = self.state.seq;
        self.state.last_hash = hex(&hash);
        self.state.last_timestamp = record.timestamp;
        self.stats.written.fetch_add(1, Ordering::Relaxed);
        if record.verdict == AuditVerdict::ChainBreak {
            self.stats.breaks.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    fn redact(&self, record: &mut AuditRecord) {
        let r = &self.opts.redactor;
        let c = &mut record.context;
        c.tool_params = c.tool_params.as_ref().map(|p| r.params(p));
        c.message_content = c.message_content.as_deref().map(|m| r.text(m));
        record.block_reason = record.block_reason.as_deref().map(|m| r.text(m));
    }

    fn day_of(&self, ms: i64) -> String {
        chrono::Utc
            .timestamp_millis_opt(ms)
            .single()
            .unwrap_or_else(chrono::Utc::now)
            .with_timezone(&self.opts.tz)
            .format("%Y-%m-%d")
            .to_string()
    }

    fn file_for(&mut self, day: &str) -> Result<&mut BufWriter<File>, String> {
        if self.file.as_ref().is_none_or(|(d, _)| d != day) {
            if self.file.is_some() {
                // Rotation: what the old file holds is signed before the next day begins.
                self.sync();
                self.checkpoint();
            }
            let path = self.opts.dir.join(format!("{day}.jsonl"));
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            self.file = Some((day.to_string(), BufWriter::with_capacity(256 * 1024, f)));
        }
        self.file
            .as_mut()
            .map(|(_, f)| f)
            .ok_or_else(|| "no audit file".to_string())
    }

    /// Flush, fsync, persist the chain head, then release everyone waiting for durability.
    fn sync(&mut self) {
        let mut result = Ok(());
        if self.dirty {
            if let Some((_, f)) = self.file.as_mut() {
                result = f
                    .flush()
                    .and_then(|_| f.get_ref().sync_data())
                    .map_err(|e| e.to_string());
            }
            if result.is_ok() {
                result = self.save_state();
            }
            self.dirty = false;
        }
        self.last_sync = Instant::now();
        if let Err(e) = &result {
            self.fail(e);
        }
        for ack in self.pending_acks.drain(..) {
            let _ = ack.send(result.clone());
        }
    }

    fn save_state(&mut self) -> Result<(), String> {
        self.state.set_frontier(&self.frontier);
        let bytes = serde_json::to_vec_pretty(&self.state).map_err(|e| e.to_string())?;
        store::write_atomic(&self.opts.dir.join("chain-state.json"), &bytes)
    }

    /// Sync and sign at once for whoever asked (host shutdown), reporting a failed signature.
    fn sign_now(&mut self, acks: Vec<Ack>) {
        self.sync();
        self.checkpoint();
        let result = if self.state.last_checkpoint_size == self.state.seq {
            Ok(())
        } else {
            Err(self
                .stats
                .last_error
                .lock()
                .ok()
                .and_then(|e| e.clone())
                .unwrap_or_else(|| "checkpoint not written".into()))
        };
        for ack in acks {
            let _ = ack.send(result.clone());
        }
    }

    fn maybe_checkpoint(&mut self, closing: bool) {
        let new = self.state.seq - self.state.last_checkpoint_size.min(self.state.seq);
        let due = new >= self.opts.checkpoint_every_records
            || (new > 0 && self.last_checkpoint.elapsed() >= self.opts.checkpoint_every);
        if new > 0 && (due || closing) {
            self.checkpoint();
        }
    }

    /// Signs `{origin, size, root, timestamp}` for everything durable and appends the note.
    fn checkpoint(&mut self) {
        if self.state.seq == self.state.last_checkpoint_size || self.dirty {
            return;
        }
        let cp = Checkpoint {
            origin: self.state.origin.clone(),
            size: self.frontier.size,
            root_hash: self.frontier.root(),
            timestamp: crate::time::now_ms(),
        };
        let note = format!("{}\n", self.key.sign(&cp));
        let path = self.opts.dir.join(CHECKPOINTS);
        let written = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(note.as_bytes()).and_then(|_| f.sync_data()));
        match written {
            Ok(()) => {
                self.state.last_checkpoint_size = cp.size;
                self.last_checkpoint = Instant::now();
                self.stats.checkpoints.fetch_add(1, Ordering::Relaxed);
                if let Ok(mut last) = self.stats.last_checkpoint.lock() {
                    *last = Some(cp);
                }
                if let Err(e) = self.save_state() {
                    self.fail(&e);
                }
            }
            Err(e) => self.fail(&format!("{}: {e}", path.display())),
        }
    }

    /// Verification at start: breaks are logged at error level and recorded as a new segment's
    /// first record; old records are never edited.
    fn verify_existing(&mut self) {
        let Ok(data) = LogData::read(&self.opts.dir) else {
            return;
        };
        let key = VerifierKey::parse(&self.key.public_key()).ok();
        let report = verify::verify(&data, key.as_ref());
        if let Some(first) = report.problems.first() {
            let reason = format!(
                "{} problem(s); first: {} (seq {:?}, file {:?})",
                report.problems.len(),
                first.reason,
                first.seq,
                first.file
            );
            (self.opts.log)(
                "error",
                format!("audit chain break found at start: {reason}"),
            );
            let details = json!({ "reason": reason, "problems": report.problems.iter().take(10).collect::<Vec<_>>() });
            self.append_logged(AuditRecord::event(
                AuditVerdict::ChainBreak,
                details,
                crate::time::now_ms(),
            ));
        }
        if let Ok(mut slot) = self.stats.startup_verification.lock() {
            *slot = Some(report);
        }
    }

    /// Deletes daily files older than `retention_days`, never the file holding the chain head.
    /// What they held stays vouched for by `pruned.json` (their Merkle frontier and last hash).
    fn apply_retention(&mut self) {
        self.last_retention = Instant::now();
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

    fn prune(&mut self, old: &[PathBuf]) -> Result<(), String> {
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

    fn fail(&self, e: &str) {
        self.stats.failed.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut last) = self.stats.last_error.lock() {
            *last = Some(e.to_string());
        }
    }
}

/// Canonical bytes at the configured level. Standard and verbose serialize the record directly
/// (its fields are in key order); minimal keeps only what proves the decision happened.
fn canonical_bytes(record: &AuditRecord, level: AuditLevel) -> Result<Vec<u8>, String> {
    if level != AuditLevel::Minimal {
        return serde_json::to_vec(record).map_err(|e| e.to_string());
    }
    let mut v = serde_json::to_value(record).map_err(|e| e.to_string())?;
    if let Some(m) = v.as_object_mut() {
        const KEEP: [&str; 11] = [
            "id",
            "seq",
            "prevHash",
            "timestamp",
            "timestampIso",
            "verdict",
            "context",
            "evaluationUs",
            "executionPrevented",
            "ruleId",
            "details",
        ];
        m.retain(|k, _| KEEP.contains(&k.as_str()));
        if let Some(ctx) = m.get_mut("context").and_then(Value::as_object_mut) {
            ctx.retain(|k, _| k == "agentId" || k == "toolName" || k == "hook");
        }
    }
    serde_json::to_vec(&v).map_err(|e| e.to_string())
}
