//! The audit writer thread: redacts, serializes canonically, hashes, appends, fsyncs in groups
//! (at once for records someone waits on), signs checkpoints, verifies at start, applies retention.

use super::checkpoint::{Checkpoint, SignerKey, VerifierKey};
use super::line;
use super::merkle::{hex, Frontier};
use super::record::{AuditRecord, AuditVerdict};
use super::store::{self, ChainState, CHECKPOINTS};
use super::tail::Tail;
use super::verify;
use super::writer::{Ack, Message, Queue, WriterOptions, WriterStats};
use crate::config::AuditLevel;
use crate::lockfile::{self as dirlock, DirLock};
use chrono::TimeZone;
use serde_json::{json, Value};
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod link;
mod peers;
mod retention;

/// How often the writer drains the buffer into the file (fsync follows `flush_interval`).
const DRAIN_EVERY: Duration = Duration::from_millis(100);
const DAY: Duration = Duration::from_secs(86_400);
/// Records kept waiting for the lock or a readable log, at most.
const MAX_BACKLOG: usize = 100_000;

fn file_len(path: &std::path::Path) -> u64 {
    fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

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
    lock: DirLock,
    state: ChainState,
    frontier: Frontier,
    /// Where the log ended after this writer's last append (or catch-up).
    tail: Tail,
    /// Length of `checkpoints` as last seen, to notice checkpoints other writers signed.
    checkpoints_len: u64,
    stats: Arc<WriterStats>,
    file: Option<(String, BufWriter<File>)>,
    dirty: bool,
    /// Records not yet appended (the lock was not to be had), oldest first.
    backlog: Vec<(AuditRecord, Option<Ack>)>,
    pending_acks: Vec<Ack>,
    last_sync: Instant,
    last_checkpoint: Instant,
    last_retention: Option<Instant>,
    /// Where the next checkpoint's consistency proof starts.
    link: link::LinkBase,
    /// Records found without a checkpoint at start, until the first checkpoint covers them.
    uncovered_at_start: Option<u64>,
    /// Whether the log has been read under the lock since start (see `note_uncovered`).
    looked: bool,
}

/// One drain's work.
#[derive(Default)]
struct Batch {
    records: Vec<(AuditRecord, Option<Ack>)>,
    flushes: Vec<Ack>,
    signs: Vec<Ack>,
}

impl Chain {
    pub(super) fn new(
        opts: WriterOptions,
        key: SignerKey,
        lock: DirLock,
        head: super::recovery::Head,
        tail: Tail,
        stats: Arc<WriterStats>,
    ) -> Chain {
        let now = Instant::now();
        let checkpoints_len = file_len(&opts.dir.join(CHECKPOINTS));
        let saved = head.state.link_base.as_ref();
        let since = saved.and_then(|b| {
            let count = head.state.seq.checked_sub(b.size)?;
            super::recovery::leaves_since(&opts.dir, b.size, count)
        });
        let link = link::LinkBase::restore(saved, since);
        Chain {
            opts,
            key,
            lock,
            state: head.state,
            frontier: head.frontier,
            tail,
            checkpoints_len,
            stats,
            file: None,
            dirty: false,
            backlog: Vec::new(),
            pending_acks: Vec::new(),
            last_sync: now,
            last_checkpoint: now,
            last_retention: None,
            link,
            uncovered_at_start: None,
            looked: false,
        }
    }

    pub(super) fn run(mut self, queue: &Queue, startup: Vec<AuditRecord>) {
        self.backlog = startup.into_iter().map(|r| (r, None)).collect();
        if self.opts.verify_on_startup {
            self.verify_existing();
        }
        self.transaction(Batch::default(), true, false);
        let mut spare = Vec::new();
        loop {
            let Some((mut messages, closed)) = take_batch(queue, spare) else {
                return;
            };
            let mut batch = Batch::default();
            for msg in messages.drain(..) {
                match msg {
                    Message::Record(record, ack) => batch.records.push((*record, ack)),
                    Message::Flush(ack) => batch.flushes.push(ack),
                    Message::Checkpoint(ack) => batch.signs.push(ack),
                    Message::Reconfigure(opts) => {
                        // Records queued before the new settings are written under the old ones.
                        let before = std::mem::take(&mut batch);
                        self.transaction(before, true, false);
                        self.reconfigure(*opts);
                    }
                }
            }
            spare = messages;
            // Group commit: one fsync for everything taken, at most every flush interval unless
            // someone waits for durability.
            let sync = closed
                || !batch.flushes.is_empty()
                || !batch.signs.is_empty()
                || batch.records.iter().any(|(_, ack)| ack.is_some())
                || self.last_sync.elapsed() >= self.opts.flush_interval;
            if sync || !batch.records.is_empty() || !self.backlog.is_empty() {
                self.transaction(batch, sync, closed);
            }
            if closed {
                return;
            }
        }
    }

    /// Settings that change without a new writer (the directory and key stay).
    fn reconfigure(&mut self, opts: WriterOptions) {
        let (dir, key_file) = (self.opts.dir.clone(), self.opts.key_file.clone());
        self.opts = WriterOptions {
            dir,
            key_file,
            ..opts
        };
    }

    /// Under the directory lock: read what other writers appended, append ours, and when asked
    /// make it durable and sign. Without the lock nothing is lost: the records wait for the next
    /// drain, and whoever waits for durability is told why.
    fn transaction(&mut self, batch: Batch, sync: bool, closing: bool) {
        self.backlog.extend(batch.records);
        self.pending_acks.extend(batch.flushes);
        let held = match self.lock.acquire(dirlock::WAIT) {
            Ok(held) => held,
            Err(e) => {
                let e = format!("{e}; records wait in memory and are retried");
                return self.hold_back(&e, batch.signs);
            }
        };
        if let Err(e) = self.catch_up() {
            // Appending without knowing where the chain ends would fork it.
            let e = format!("{e}; records wait in memory and are retried");
            return self.hold_back(&e, batch.signs);
        }
        self.note_uncovered();
        if self.last_retention.is_none_or(|t| t.elapsed() >= DAY) {
            self.apply_retention();
        }
        for (record, ack) in std::mem::take(&mut self.backlog) {
            match (self.append(record), ack) {
                (Ok(()), Some(ack)) => self.pending_acks.push(ack),
                (Ok(()), None) => {}
                (Err(e), ack) => {
                    self.fail(&e);
                    if let Some(ack) = ack {
                        let _ = ack.send(Err(e));
                    }
                }
            }
        }
        self.write_out();
        if sync || !batch.signs.is_empty() {
            self.sync();
            self.maybe_checkpoint(closing);
        }
        if !batch.signs.is_empty() {
            self.sign_now(batch.signs);
        }
        self.stats
            .trail_records
            .store(self.state.seq, Ordering::Relaxed);
        drop(held);
    }

    /// Everything appended reaches the kernel before the lock is let go, so the next writer
    /// reads whole lines; `tail` moves to the new end.
    fn write_out(&mut self) {
        let Some((day, f)) = self.file.as_mut() else {
            return;
        };
        if let Err(e) = f.flush() {
            let e = e.to_string();
            return self.fail(&e);
        }
        let len = f.get_ref().metadata().map(|m| m.len());
        let name = format!("{day}.jsonl");
        match len {
            Ok(len) => {
                self.tail = Tail {
                    file: Some(name),
                    len,
                }
            }
            Err(e) => self.fail(&e.to_string()),
        }
    }

    fn append(&mut self, mut record: AuditRecord) -> Result<(), String> {
        if record.id.is_empty() {
            record.id = uuid::Uuid::new_v4().to_string();
        }
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
        let day = self.day_for(record.timestamp);
        if let Err(e) = self
            .file_for(&day)
            .and_then(|f| f.write_all(&bytes).map_err(|e| e.to_string()))
        {
            self.state.last_hash = record.prev_hash;
            return Err(e);
        }
        self.dirty = true;
        self.frontier.push(hash);
        self.link.push(hash);
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

    /// Every field that can carry text from an agent, a tool, the host or a config passes the
    /// redactor. The chain's own events are left whole: their details are positions and hashes
    /// that `verify` reads back, and nothing outside the chain writes them.
    fn redact(&self, record: &mut AuditRecord) {
        let r = &self.opts.redactor;
        let c = &mut record.context;
        c.tool_params = c.tool_params.as_ref().map(|p| r.params(p));
        c.message_content = c.message_content.as_deref().map(|m| r.text(m));
        c.message_to = c.message_to.as_deref().map(|m| r.text(m));
        if let Some(ov) = c.output_validation.as_mut() {
            ov.redact(r);
        }
        record.block_reason = record.block_reason.as_deref().map(|m| r.text(m));
        record.error = record.error.as_deref().map(|m| r.text(m));
        for s in record
            .provenance
            .iter_mut()
            .flat_map(|p| p.sources.iter_mut())
        {
            s.what = r.text(&s.what);
        }
        if !is_chain_event(record.verdict) {
            record.details = record.details.as_ref().map(|d| r.json(d));
        }
    }

    /// A record's day, never before the newest file's: another writer may already have begun the
    /// next day, and the chain must not go back to an older file.
    fn day_for(&self, ms: i64) -> String {
        let day = self.day_of(ms);
        match self.tail.day() {
            Some(newest) if newest > day.as_str() => newest.to_string(),
            _ => day,
        }
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
                self.write_out();
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
        match &result {
            Err(e) => self.fail(e),
            Ok(()) => self.stats.unhealthy.store(false, Ordering::Relaxed),
        }
        for ack in self.pending_acks.drain(..) {
            let _ = ack.send(result.clone());
        }
    }

    fn save_state(&mut self) -> Result<(), String> {
        self.state.set_frontier(&self.frontier);
        self.state.head_file = self.tail.file.clone();
        self.state.head_len = self.tail.len;
        self.state.link_base = self.link.saved();
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

    /// At the first look at the whole log (after reading what the saved state did not know of:
    /// a crash between fsync and saving the state leaves such records), records no checkpoint
    /// covers were left by a writer that died; they are signed at once, saying how many.
    fn note_uncovered(&mut self) {
        if std::mem::replace(&mut self.looked, true) {
            return;
        }
        let uncovered = self.state.seq - self.state.last_checkpoint_size.min(self.state.seq);
        self.uncovered_at_start = (uncovered > 0).then_some(uncovered);
    }

    fn maybe_checkpoint(&mut self, closing: bool) {
        let new = self.state.seq - self.state.last_checkpoint_size.min(self.state.seq);
        let due = new >= self.opts.checkpoint_every_records
            || (new > 0 && self.last_checkpoint.elapsed() >= self.opts.checkpoint_every);
        // A start that found records no checkpoint covers (a crash) signs them at once, unless
        // another writer's checkpoint covered them meanwhile.
        if new == 0 {
            self.uncovered_at_start = None;
        }
        let recovering = self.uncovered_at_start.is_some();
        if new > 0 && (due || closing || recovering) {
            self.checkpoint();
        }
    }

    /// Signs `{origin, size, root, timestamp}` for everything durable and appends the note.
    fn checkpoint(&mut self) {
        if self.state.seq == self.state.last_checkpoint_size || self.dirty {
            return;
        }
        let mut cp = Checkpoint::new(
            &self.state.origin,
            self.frontier.size,
            self.frontier.root(),
            crate::time::now_ms(),
        );
        cp.link = self.link.link(cp.size);
        cp.recovered = self.uncovered_at_start;
        let note = format!("{}\n", self.key.sign(&cp));
        let path = self.opts.dir.join(CHECKPOINTS);
        let written = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(note.as_bytes()).and_then(|_| f.sync_data()));
        match written {
            Ok(()) => {
                self.checkpoints_len = file_len(&path);
                self.state.last_checkpoint_size = cp.size;
                self.last_checkpoint = Instant::now();
                self.uncovered_at_start = None;
                self.link.rebase(&self.frontier);
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
        let Some(data) = self.consistent_view() else {
            return;
        };
        let key = VerifierKey::parse(&self.key.public_key()).ok();
        let opts = verify::Options {
            key: key.as_ref(),
            coverage: verify::Coverage::Live,
            since: None,
            witnesses: &[],
        };
        let report = verify::verify_with(&data, &opts);
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
            let event =
                AuditRecord::event(AuditVerdict::ChainBreak, details, crate::time::now_ms());
            self.backlog.push((event, None));
        }
        if let Ok(mut slot) = self.stats.startup_verification.lock() {
            *slot = Some(report);
        }
    }

    fn fail(&self, e: &str) {
        self.stats.failed.fetch_add(1, Ordering::Relaxed);
        self.stats.unhealthy.store(true, Ordering::Relaxed);
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

/// Records the chain writes about itself (see `redact`).
fn is_chain_event(verdict: AuditVerdict) -> bool {
    matches!(
        verdict,
        AuditVerdict::ChainBreak | AuditVerdict::ChainTorn | AuditVerdict::Retention
    )
}
