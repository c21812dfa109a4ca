//! The background audit writer. Evaluating threads hand records over through a mutex-guarded
//! buffer; the writer thread redacts, serializes canonically, hashes, appends, fsyncs in groups
//! (at once for records someone waits on), signs checkpoints, applies retention and verifies the
//! log at start. Several writers may share one directory (a gateway and a CLI run, an engine
//! rebuilt after a config edit): each appends under `writer.lock`, after reading what the others
//! appended, so together they write one chain.

use super::checkpoint::{Checkpoint, SignerKey};
use super::record::{AuditRecord, AuditVerdict};
use super::recovery;
use super::redact::Redactor;
use super::verify::VerifyReport;
use crate::config::AuditLevel;
use crate::lockfile::{self as dirlock, DirLock};
use chrono_tz::Tz;
use serde_json::json;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub type Ack = SyncSender<Result<(), String>>;
pub type LogFn = Arc<dyn Fn(&'static str, String) + Send + Sync>;

pub enum Message {
    Record(Box<AuditRecord>, Option<Ack>),
    Flush(Ack),
    /// Flush and sign a checkpoint for everything written (shutdown of the host).
    Checkpoint(Ack),
    /// New settings from a config edit; the directory and the key stay.
    Reconfigure(Box<WriterOptions>),
}

pub struct WriterOptions {
    pub dir: PathBuf,
    pub tz: Tz,
    pub level: AuditLevel,
    pub flush_interval: Duration,
    pub redactor: Redactor,
    pub key_file: PathBuf,
    pub checkpoint_every_records: u64,
    pub checkpoint_every: Duration,
    pub retention_days: u64,
    pub verify_on_startup: bool,
    pub log: LogFn,
}

#[derive(Default)]
pub struct WriterStats {
    pub written: AtomicU64,
    /// Records in the chain (every writer's) after this writer's last append or catch-up.
    pub trail_records: AtomicU64,
    pub failed: AtomicU64,
    /// Set by a failed append or sync, cleared by the next successful sync: with
    /// `failMode: closed`, nothing is allowed that cannot be recorded.
    pub unhealthy: AtomicBool,
    pub checkpoints: AtomicU64,
    pub breaks: AtomicU64,
    pub last_error: Mutex<Option<String>>,
    pub last_checkpoint: Mutex<Option<Checkpoint>>,
    pub startup_verification: Mutex<Option<VerifyReport>>,
}

/// The hand-off buffer: `(messages, closed)`. Pushing is a lock and a `Vec::push`; the writer is
/// woken only for durable writes, flushes or a large backlog, so an ordinary record costs no
/// thread wake-up on the evaluating thread.
#[derive(Default)]
pub(super) struct Queue {
    pub(super) items: Mutex<(Vec<Message>, bool)>,
    pub(super) wake: Condvar,
}

pub struct AuditWriter {
    queue: Arc<Queue>,
    thread: Option<JoinHandle<()>>,
    pub stats: Arc<WriterStats>,
    pub dir: PathBuf,
    pub key_file: PathBuf,
    pub public_key: String,
}

/// Wake the writer early once this many records wait.
const WAKE_AT: usize = 4096;

impl AuditWriter {
    pub fn start(opts: WriterOptions) -> Result<AuditWriter, String> {
        fs::create_dir_all(&opts.dir).map_err(|e| format!("{}: {e}", opts.dir.display()))?;
        let lock = DirLock::open(&opts.dir, "writer.lock")?;
        let key = SignerKey::load_or_create(&opts.key_file)?;
        let now = crate::time::now_ms();
        let held = lock.acquire(dirlock::WAIT)?;
        let (head, torn, tail) = recovery::open_head(&opts.dir, now)?;
        let state_file = opts.dir.join("chain-state.json");
        if !state_file.exists() {
            // A new log's origin is fixed before the lock is let go, or a second writer starting
            // at the same moment would sign its checkpoints under an origin of its own.
            let bytes = serde_json::to_vec_pretty(&head.state).map_err(|e| e.to_string())?;
            super::store::write_atomic(&state_file, &bytes)?;
        }
        drop(held);
        let mut startup = Vec::new();
        if let Some(details) = torn {
            (opts.log)(
                "warn",
                format!("audit: a torn last line was moved aside at start: {details}"),
            );
            startup.push(AuditRecord::event(AuditVerdict::ChainTorn, details, now));
        }
        if let Some(problem) = &head.problem {
            (opts.log)("error", format!("audit chain break: {problem}"));
            startup.push(AuditRecord::event(
                AuditVerdict::ChainBreak,
                json!({ "reason": problem }),
                now,
            ));
        }
        let queue = Arc::new(Queue::default());
        let stats = Arc::new(WriterStats::default());
        let (dir, key_file, public_key) =
            (opts.dir.clone(), opts.key_file.clone(), key.public_key());
        let chain = super::chain::Chain::new(opts, key, lock, head, tail, stats.clone());
        let thread_queue = queue.clone();
        let thread = std::thread::Builder::new()
            .name("governance-audit".into())
            .spawn(move || chain.run(&thread_queue, startup))
            .map_err(|e| format!("cannot start the audit writer thread: {e}"))?;
        Ok(AuditWriter {
            queue,
            thread: Some(thread),
            stats,
            dir,
            key_file,
            public_key,
        })
    }

    /// New settings for the same directory and key (a config edit); records queued before are
    /// written under the old ones.
    pub fn reconfigure(&self, opts: WriterOptions) -> Result<(), String> {
        self.push(Message::Reconfigure(Box::new(opts)), true)
    }

    /// False after a write or sync failed, until one succeeds again.
    pub fn healthy(&self) -> bool {
        !self.stats.unhealthy.load(Ordering::Relaxed)
    }

    fn push(&self, msg: Message, wake: bool) -> Result<(), String> {
        let mut guard = self
            .queue
            .items
            .lock()
            .map_err(|_| "audit queue poisoned".to_string())?;
        if guard.1 {
            return Err("audit writer is closed".into());
        }
        guard.0.push(msg);
        // Wake once when the backlog reaches the mark, not on every push after it: each notify is
        // a futex syscall, and the writer is busy anyway.
        if wake || guard.0.len() == WAKE_AT {
            self.queue.wake.notify_one();
        }
        Ok(())
    }

    /// Queues a record; with `durable`, waits until it is fsynced (or failed).
    pub fn write(&self, record: AuditRecord, durable: bool) -> Result<(), String> {
        if !durable {
            return self.push(Message::Record(Box::new(record), None), false);
        }
        let (ack_tx, ack_rx) = mpsc::sync_channel(1);
        self.push(Message::Record(Box::new(record), Some(ack_tx)), true)?;
        ack_rx
            .recv()
            .map_err(|_| "audit writer stopped".to_string())?
    }

    /// Everything queued so far is on disk when this returns.
    pub fn flush(&self) -> Result<(), String> {
        let (ack_tx, ack_rx) = mpsc::sync_channel(1);
        if self.push(Message::Flush(ack_tx), true).is_err() {
            return Ok(()); // closed: everything was flushed at close
        }
        ack_rx
            .recv()
            .map_err(|_| "audit writer stopped".to_string())?
    }

    /// Everything queued is on disk and covered by a signed checkpoint when this returns.
    pub fn checkpoint(&self) -> Result<(), String> {
        let (ack_tx, ack_rx) = mpsc::sync_channel(1);
        self.push(Message::Checkpoint(ack_tx), true)?;
        ack_rx
            .recv()
            .map_err(|_| "audit writer stopped".to_string())?
    }

    /// Flushes, signs a final checkpoint and stops the thread.
    pub fn close(&mut self) -> Result<(), String> {
        let result = self.flush();
        if let Ok(mut guard) = self.queue.items.lock() {
            guard.1 = true;
        }
        self.queue.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        result
    }
}

impl Drop for AuditWriter {
    fn drop(&mut self) {
        let _ = self.close();
    }
}
