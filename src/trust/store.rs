//! `governance/trust.json` (the seed's `TrustStore` v1 shape): loaded at start, written by a
//! background thread (debounced by `persistIntervalSeconds`, atomically: temp file, fsync,
//! rename), flushed on request. A corrupt or truncated file is kept aside, never overwritten.

use super::AgentTrust;
use crate::audit::store::write_atomic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(Debug, Deserialize)]
pub struct TrustStore {
    pub version: u32,
    pub updated: String,
    pub agents: BTreeMap<String, AgentTrust>,
}

/// The same shape, written from the live agents without copying them.
#[derive(Serialize)]
pub struct TrustStoreOut<'a> {
    pub version: u32,
    pub updated: String,
    pub agents: &'a BTreeMap<std::sync::Arc<str>, AgentTrust>,
}

/// Why a file's contents are not a store we can use.
enum Unreadable {
    Io(String),
    Contents(String),
}

fn read_store(path: &Path) -> Result<BTreeMap<String, AgentTrust>, Unreadable> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(Unreadable::Io(format!("{}: {e}", path.display()))),
    };
    match serde_json::from_slice::<TrustStore>(&bytes) {
        Ok(store) if store.version == 1 => Ok(store.agents),
        Ok(s) => Err(Unreadable::Contents(format!(
            "unsupported version {}",
            s.version
        ))),
        Err(e) => Err(Unreadable::Contents(e.to_string())),
    }
}

/// The agents in the file; a file that cannot be read is renamed aside and reported.
pub fn load(path: &Path, now: i64) -> (BTreeMap<String, AgentTrust>, Option<String>) {
    let why = match read_store(path) {
        Ok(agents) => return (agents, None),
        Err(Unreadable::Io(e)) => return (BTreeMap::new(), Some(e)),
        Err(Unreadable::Contents(why)) => why,
    };
    let aside = path.with_file_name(format!("trust.json.corrupt-{now}"));
    let report = match std::fs::rename(path, &aside) {
        Ok(()) => format!("{} is unreadable ({why}); kept as {} and started from the configured defaults", path.display(), aside.display()),
        Err(e) => format!("{} is unreadable ({why}) and could not be moved aside ({e}); trust will not be saved over it", path.display()),
    };
    (BTreeMap::new(), Some(report))
}

/// The agents in the file, read without touching it (an unreadable file is reported, not moved).
pub fn peek(path: &Path) -> (BTreeMap<String, AgentTrust>, Option<String>) {
    match read_store(path) {
        Ok(agents) => (agents, None),
        Err(Unreadable::Io(e)) => (BTreeMap::new(), Some(e)),
        Err(Unreadable::Contents(why)) => {
            (BTreeMap::new(), Some(format!("{}: {why}", path.display())))
        }
    }
}

pub type Snapshot = Box<dyn Fn() -> Option<Vec<u8>> + Send>;

type Ack = SyncSender<Result<(), String>>;

#[derive(Default)]
struct Signal {
    /// (dirty, closed, flushes waiting for the write)
    state: Mutex<(bool, bool, Vec<Ack>)>,
    wake: Condvar,
}

/// The thread that writes trust.json; callers only mark it dirty.
pub struct Persister {
    signal: Arc<Signal>,
    thread: Option<JoinHandle<()>>,
    pub path: PathBuf,
    interval: Duration,
    blocked: bool,
}

impl Persister {
    /// `snapshot` serializes the current store (under the manager's lock, off the caller's thread).
    pub fn start(
        path: PathBuf,
        interval: Duration,
        snapshot: Snapshot,
        blocked: bool,
    ) -> Persister {
        let signal = Arc::new(Signal::default());
        let (s, p) = (signal.clone(), path.clone());
        let thread = std::thread::Builder::new()
            .name("governance-trust".into())
            .spawn(move || run(&s, &p, interval, snapshot, blocked))
            .ok();
        Persister {
            signal,
            thread,
            path,
            interval,
            blocked,
        }
    }

    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Writes what is pending, then runs a new thread on the same file at `interval`.
    pub fn restart(&mut self, interval: Duration, snapshot: Snapshot) -> Result<(), String> {
        let result = self.close();
        *self = Persister::start(self.path.clone(), interval, snapshot, self.blocked);
        result
    }

    pub fn mark_dirty(&self) {
        if let Ok(mut g) = self.signal.state.lock() {
            g.0 = true;
        }
    }

    /// Writes now (if anything changed) and waits for it.
    pub fn flush(&self) -> Result<(), String> {
        let (tx, rx) = mpsc::sync_channel(1);
        {
            let mut g = self
                .signal
                .state
                .lock()
                .map_err(|_| "trust persister poisoned".to_string())?;
            if g.1 {
                // A change after close is never written: a newer manager may own the file now.
                return match g.0 {
                    true => Err("trust changed after close; not saved".into()),
                    false => Ok(()),
                };
            }
            if self.thread.is_none() {
                // No thread to answer: waiting would hang.
                return Err("the trust persister thread could not be started".into());
            }
            g.2.push(tx);
        }
        self.signal.wake.notify_one();
        rx.recv()
            .map_err(|_| "trust persister stopped".to_string())?
    }

    pub fn close(&mut self) -> Result<(), String> {
        let result = self.flush();
        if let Ok(mut g) = self.signal.state.lock() {
            g.1 = true;
        }
        self.signal.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        result
    }
}

impl Drop for Persister {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

fn run(signal: &Signal, path: &Path, interval: Duration, snapshot: Snapshot, blocked: bool) {
    loop {
        let Ok(guard) = signal.state.lock() else {
            return;
        };
        let Ok((mut g, _)) =
            signal
                .wake
                .wait_timeout_while(guard, interval, |(_, closed, waiting)| {
                    !*closed && waiting.is_empty()
                })
        else {
            return;
        };
        let (dirty, closed, waiting) = (g.0, g.1, std::mem::take(&mut g.2));
        g.0 = false;
        drop(g);
        let result = if dirty && !blocked {
            snapshot().map_or(Ok(()), |bytes| write_atomic(path, &bytes))
        } else if dirty {
            Err("trust.json was unreadable and could not be moved aside; not overwriting it".into())
        } else {
            Ok(())
        };
        for w in waiting {
            let _ = w.send(result.clone());
        }
        if closed {
            return;
        }
    }
}
