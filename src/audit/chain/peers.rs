//! Other writers on the same directory (a CLI run beside the gateway, an engine rebuilt after a
//! config edit): what they appended is read before this writer appends, what they left torn is
//! moved aside, and when the lock or the log cannot be had, records wait instead of forking the
//! chain.

use super::{file_len, Chain, MAX_BACKLOG};
use crate::audit::checkpoint;
use crate::audit::merkle::hex;
use crate::audit::record::{AuditRecord, AuditVerdict};
use crate::audit::store::{LogData, CHECKPOINTS};
use crate::audit::tail::{self, Tail};
use crate::audit::writer::Ack;
use crate::lockfile as dirlock;
use serde_json::json;
use std::fs;
use std::sync::atomic::Ordering;

impl Chain {
    pub(super) fn hold_back(&mut self, e: &str, signs: Vec<Ack>) {
        self.fail(e);
        if self.backlog.len() > MAX_BACKLOG {
            // Memory is bounded too: past this, the oldest waiting records are given up, counted
            // as failures and named in the log.
            let excess = self.backlog.len() - MAX_BACKLOG;
            self.backlog.drain(..excess);
            self.stats
                .failed
                .fetch_add(excess as u64, Ordering::Relaxed);
            (self.opts.log)(
                "error",
                format!("audit: {excess} records given up after waiting too long ({e})"),
            );
        }
        for ack in self.pending_acks.drain(..).chain(signs) {
            let _ = ack.send(Err(e.to_string()));
        }
        for (_, ack) in self.backlog.iter_mut() {
            if let Some(ack) = ack.take() {
                let _ = ack.send(Err(e.to_string()));
            }
        }
    }

    /// Continues the chain from whatever other writers on this directory appended since this
    /// one last wrote: their leaves join the frontier, a line they left torn is moved aside, and
    /// a log that got shorter is recorded as a break and read again.
    pub(super) fn catch_up(&mut self) -> Result<(), String> {
        let appended = tail::read_since(&self.opts.dir, &self.tail)
            .map_err(|e| format!("reading what other writers appended: {e}"))?;
        if let Some(why) = appended.shrunk {
            (self.opts.log)("error", format!("audit chain break: {why}"));
            let head = crate::audit::recovery::find_head(&self.opts.dir);
            self.state = head.state;
            self.frontier = head.frontier;
            self.tail = Tail::of(&self.opts.dir);
            self.file = None;
            self.link.forget();
            let event = AuditRecord::event(
                AuditVerdict::ChainBreak,
                json!({ "reason": why }),
                crate::time::now_ms(),
            );
            self.backlog.insert(0, (event, None));
            return Ok(());
        }
        for leaf in &appended.leaves {
            self.frontier.push(leaf.hash);
            self.link.push(leaf.hash);
            self.state.seq = leaf.seq + 1;
            self.state.last_hash = hex(&leaf.hash);
            self.state.last_timestamp = leaf.timestamp;
        }
        self.state.record_count = self.state.seq;
        self.tail = appended.tail;
        if let Some((name, keep, bytes)) = appended.torn {
            self.move_torn_aside(&name, keep, &bytes);
        }
        self.notice_other_checkpoints();
        Ok(())
    }

    pub(super) fn move_torn_aside(&mut self, name: &str, keep: u64, bytes: &[u8]) {
        let now = crate::time::now_ms();
        match crate::audit::recovery::cut_torn(&self.opts.dir.join(name), keep, bytes, now) {
            Ok(details) => {
                (self.opts.log)(
                    "warn",
                    format!("audit: another writer left a torn last line; moved aside: {details}"),
                );
                let event = AuditRecord::event(AuditVerdict::ChainTorn, details, now);
                self.backlog.insert(0, (event, None));
            }
            Err(e) => self.fail(&format!("moving a torn line aside: {e}")),
        }
    }

    /// A checkpoint another writer signed covers records this one need not sign again.
    pub(super) fn notice_other_checkpoints(&mut self) {
        let path = self.opts.dir.join(CHECKPOINTS);
        let len = file_len(&path);
        if len == self.checkpoints_len {
            return;
        }
        self.checkpoints_len = len;
        let last = fs::read_to_string(&path)
            .ok()
            .and_then(|t| checkpoint::parse_notes(&t).ok())
            .and_then(|notes| {
                notes
                    .last()
                    .and_then(|n| checkpoint::open_unchecked(n).ok())
            });
        if let Some(c) = last {
            self.state.last_checkpoint_size = self.state.last_checkpoint_size.max(c.size);
            // Our next proof may start from the other writer's checkpoint when it covers exactly
            // what we have read (the usual case), so the leaves kept need not grow.
            if c.size == self.frontier.size && c.root_hash == self.frontier.root() {
                self.link.rebase(&self.frontier);
            }
        }
    }

    /// The log and its checkpoints as they stood at one moment: both are sampled under the lock
    /// (the log's end only, so the lock is held for a stat, not for reading the log), and the log
    /// is read up to that end while other writers may go on appending.
    pub(super) fn consistent_view(&self) -> Option<LogData> {
        let held = self.lock.acquire(dirlock::WAIT).ok()?;
        let checkpoints = fs::read_to_string(self.opts.dir.join(CHECKPOINTS)).unwrap_or_default();
        let tail = Tail::of(&self.opts.dir);
        drop(held);
        let mut data = LogData::read_until(&self.opts.dir, Some(&tail)).ok()?;
        data.checkpoints = checkpoints;
        Some(data)
    }
}
