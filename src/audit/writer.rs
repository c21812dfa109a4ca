//! The background audit writer: owns the chain (seq, prevHash, hash), redacts, serializes and
//! appends JSONL to `audit/YYYY-MM-DD.jsonl`, with group commit (one fsync per batch, at most
//! every `flush_interval`). A record sent with an ack is on disk before the ack is sent, which is
//! how a block's proof of prevention is durable before the hook returns.

use super::record::AuditRecord;
use super::redact::Redactor;
use crate::config::AuditLevel;
use chrono::TimeZone;
use chrono_tz::Tz;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

pub enum Message {
    Record(Box<AuditRecord>, Option<SyncSender<Result<(), String>>>),
    Flush(SyncSender<Result<(), String>>),
}

pub struct WriterOptions {
    pub dir: PathBuf,
    pub tz: Tz,
    pub level: AuditLevel,
    pub flush_interval: Duration,
    pub redactor: Redactor,
}

#[derive(Default)]
pub struct WriterStats {
    pub written: AtomicU64,
    pub failed: AtomicU64,
    pub last_error: Mutex<Option<String>>,
}

/// The hand-off between evaluating threads and the writer: a plain buffer under a mutex.
/// Pushing is a lock and a `Vec::push`; the writer is woken only when someone waits for
/// durability or the buffer grows large, so an ordinary record costs no thread wake-up.
#[derive(Default)]
struct Queue {
    items: Mutex<(Vec<Message>, bool)>,
    wake: Condvar,
}

pub struct AuditWriter {
    queue: Arc<Queue>,
    thread: Option<JoinHandle<()>>,
    pub stats: Arc<WriterStats>,
    pub dir: PathBuf,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChainState {
    seq: u64,
    last_hash: String,
    last_timestamp: i64,
    record_count: u64,
}

/// Wake the writer early once this many records wait.
const WAKE_AT: usize = 4096;
/// How often the writer drains the buffer into the file (fsync still follows `flush_interval`).
const DRAIN_EVERY: Duration = Duration::from_millis(100);

impl AuditWriter {
    pub fn start(opts: WriterOptions) -> io::Result<AuditWriter> {
        fs::create_dir_all(&opts.dir)?;
        let state = read_chain_state(&opts.dir);
        let queue = Arc::new(Queue::default());
        let stats = Arc::new(WriterStats::default());
        let dir = opts.dir.clone();
        let (thread_queue, thread_stats) = (queue.clone(), stats.clone());
        let thread = std::thread::Builder::new()
            .name("governance-audit".into())
            .spawn(move || Chain::new(opts, state, thread_stats).run(&thread_queue))?;
        Ok(AuditWriter {
            queue,
            thread: Some(thread),
            stats,
            dir,
        })
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
        if wake || guard.0.len() >= WAKE_AT {
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

fn read_chain_state(dir: &Path) -> ChainState {
    fs::read(dir.join("chain-state.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(ChainState {
            seq: 0,
            last_hash: GENESIS.into(),
            last_timestamp: 0,
            record_count: 0,
        })
}

/// The writer thread's state.
struct Chain {
    opts: WriterOptions,
    state: ChainState,
    stats: Arc<WriterStats>,
    file: Option<(String, BufWriter<File>)>,
    dirty: bool,
    pending_acks: Vec<SyncSender<Result<(), String>>>,
}

impl Chain {
    fn new(opts: WriterOptions, state: ChainState, stats: Arc<WriterStats>) -> Chain {
        Chain {
            opts,
            state,
            stats,
            file: None,
            dirty: false,
            pending_acks: Vec::new(),
        }
    }

    fn run(mut self, queue: &Queue) {
        let mut last_sync = Instant::now();
        loop {
            let (batch, closed) = match take_batch(queue) {
                Some(b) => b,
                None => return,
            };
            for msg in batch {
                self.handle(msg);
            }
            // Group commit: one fsync for everything taken, at most every flush interval
            // unless someone waits for durability.
            if !self.pending_acks.is_empty()
                || last_sync.elapsed() >= self.opts.flush_interval
                || closed
            {
                self.sync();
                last_sync = Instant::now();
            }
            if closed {
                return;
            }
        }
    }

    fn handle(&mut self, msg: Message) {
        match msg {
            Message::Record(record, ack) => {
                let result = self.append(*record);
                if let Err(e) = &result {
                    self.fail(e);
                }
                if let Some(ack) = ack {
                    match result {
                        Ok(()) => self.pending_acks.push(ack),
                        Err(e) => {
                            let _ = ack.send(Err(e));
                        }
                    }
                }
            }
            Message::Flush(ack) => self.pending_acks.push(ack),
        }
    }

    fn append(&mut self, mut record: AuditRecord) -> Result<(), String> {
        record.id = uuid::Uuid::new_v4().to_string();
        record.timestamp_iso = super::iso_millis(record.timestamp);
        record.controls = super::controls_for(&record.context.hook, record.verdict);
        self.redact(&mut record);
        record.seq = self.state.seq;
        record.prev_hash = self.state.last_hash.clone();
        let mut value = serde_json::to_value(&record).map_err(|e| e.to_string())?;
        apply_level(&mut value, self.opts.level);
        if let Some(m) = value.as_object_mut() {
            m.remove("hash");
        }
        let hash = leaf_hash(&value);
        value["hash"] = Value::String(hash.clone());
        let mut line = serde_json::to_vec(&value).map_err(|e| e.to_string())?;
        line.push(b'\n');
        let day = self.day_of(record.timestamp);
        self.file_for(&day)?
            .write_all(&line)
            .map_err(|e| e.to_string())?;
        self.dirty = true;
        self.state = ChainState {
            seq: record.seq + 1,
            last_hash: hash,
            last_timestamp: record.timestamp,
            record_count: self.state.record_count + 1,
        };
        self.stats.written.fetch_add(1, Ordering::Relaxed);
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
            self.sync();
            let path = self.opts.dir.join(format!("{day}.jsonl"));
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            self.file = Some((day.to_string(), BufWriter::new(f)));
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
                result = self.write_chain_state();
            }
            self.dirty = false;
        }
        if let Err(e) = &result {
            self.fail(e);
        }
        for ack in self.pending_acks.drain(..) {
            let _ = ack.send(result.clone());
        }
    }

    fn write_chain_state(&self) -> Result<(), String> {
        let tmp = self.opts.dir.join("chain-state.json.tmp");
        let bytes = serde_json::to_vec_pretty(&self.state).map_err(|e| e.to_string())?;
        let write = || -> io::Result<()> {
            let mut f = File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_all()?;
            fs::rename(&tmp, self.opts.dir.join("chain-state.json"))
        };
        write().map_err(|e| format!("chain-state.json: {e}"))
    }

    fn fail(&self, e: &str) {
        self.stats.failed.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut last) = self.stats.last_error.lock() {
            *last = Some(e.to_string());
        }
    }
}

/// Waits for work (or the drain tick) and takes everything queued; `None` if the lock is poisoned.
fn take_batch(queue: &Queue) -> Option<(Vec<Message>, bool)> {
    let guard = queue.items.lock().ok()?;
    let (mut guard, _) = queue
        .wake
        .wait_timeout_while(guard, DRAIN_EVERY, |(items, closed)| {
            items.is_empty() && !*closed
        })
        .ok()?;
    Some((std::mem::take(&mut guard.0), guard.1))
}

/// RFC 6962 leaf hash of the canonical record: SHA-256(0x00 ‖ compact JSON with sorted keys),
/// computed over every field but `hash` (a `hash` key present in `record` is ignored).
pub fn leaf_hash(record: &Value) -> String {
    let mut h = Sha256::new();
    h.update([0u8]);
    match record.as_object().filter(|m| m.contains_key("hash")) {
        Some(m) => {
            let without: serde_json::Map<String, Value> = m
                .iter()
                .filter(|(k, _)| k.as_str() != "hash")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            h.update(Value::Object(without).to_string().as_bytes());
        }
        None => h.update(record.to_string().as_bytes()),
    }
    format!("{:x}", h.finalize())
}

/// NORMATIVE N6 levels: `minimal` keeps only what proves the decision happened.
fn apply_level(v: &mut Value, level: AuditLevel) {
    if level != AuditLevel::Minimal {
        return;
    }
    let Some(m) = v.as_object_mut() else { return };
    const KEEP: [&str; 11] = [
        "id",
        "seq",
        "prevHash",
        "hash",
        "timestamp",
        "timestampIso",
        "verdict",
        "context",
        "evaluationUs",
        "executionPrevented",
        "ruleId",
    ];
    m.retain(|k, _| KEEP.contains(&k.as_str()));
    if let Some(ctx) = m.get_mut("context").and_then(Value::as_object_mut) {
        ctx.retain(|k, _| k == "agentId" || k == "toolName" || k == "hook");
    }
}
