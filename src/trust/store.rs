//! `governance/trust.json` (the seed's `TrustStore` v1 shape): loaded at start, written by a
//! background thread (debounced by `persistIntervalSeconds`, atomically: temp file, fsync,
//! rename), flushed on request, sealed with a MAC (`seal`). A file that does not authenticate
//! (edited offline, MAC removed, truncated, garbage) is kept aside, never trusted nor overwritten.

use super::seal::{self, TrustKey};
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
    /// `hmac-sha256:<hex>` over the bytes before it (`seal`); absent in files of older versions.
    #[serde(default)]
    pub mac: Option<String>,
}

/// The same shape, written from the live agents without copying them (`seal` adds the MAC).
#[derive(Serialize)]
pub struct TrustStoreOut<'a> {
    pub version: u32,
    pub updated: String,
    pub agents: &'a BTreeMap<std::sync::Arc<str>, AgentTrust>,
}

/// What the engine could establish about the trust.json it started from (`getStatus().trust`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Integrity {
    /// No state directory: nothing is read or written.
    InMemory,
    /// No file yet: started from the configured defaults.
    New,
    /// The MAC verified under the trust key.
    Authenticated,
    /// Written by an older version before any trust key existed: accepted once (and re-signed
    /// by the process that persists it).
    Legacy,
    /// A missing or wrong MAC, or contents that are no trust store: not trusted, kept aside.
    Rejected,
    /// The key or the file could not be read: nothing trusted, nothing moved.
    Unverified,
}

/// trust.json as the engine starts from it.
pub struct Loaded {
    pub agents: BTreeMap<String, AgentTrust>,
    pub integrity: Integrity,
    pub error: Option<String>,
    pub notice: Option<String>,
    /// Why the file must not be written over (None: the persister may write).
    pub blocked: Option<String>,
    /// The key new files are sealed with.
    pub key: Option<Arc<TrustKey>>,
}

impl Loaded {
    fn empty(integrity: Integrity, error: Option<String>) -> Loaded {
        Loaded {
            agents: BTreeMap::new(),
            integrity,
            error,
            notice: None,
            blocked: None,
            key: None,
        }
    }
}

/// Authenticates `bytes` (when a key exists) and parses them. Without a key only a file that
/// never carried a MAC passes: one with a MAC lost its key, which is not how files get old.
fn judge(
    bytes: &[u8],
    key: Option<&TrustKey>,
    key_file: &Path,
) -> Result<(BTreeMap<String, AgentTrust>, Integrity), String> {
    if let Some(k) = key {
        k.open(bytes).map_err(|f| f.to_string())?;
    }
    let store = match serde_json::from_slice::<TrustStore>(bytes) {
        Ok(s) if s.version == 1 => s,
        Ok(s) => return Err(format!("unsupported version {}", s.version)),
        Err(e) => return Err(format!("not a trust store: {e}")),
    };
    match (key, store.mac.is_some()) {
        (Some(_), _) => Ok((store.agents, Integrity::Authenticated)),
        (None, false) => Ok((store.agents, Integrity::Legacy)),
        (None, true) => Err(format!(
            "it carries a MAC but its key {} is missing",
            key_file.display()
        )),
    }
}

/// The file's bytes; None when there is no file.
fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The store the persisting process starts from. A file that does not authenticate is renamed
/// aside and reported, and the configured defaults apply; the key is made on first start.
pub fn load(path: &Path, now: i64) -> Loaded {
    let key_file = seal::key_path(path);
    let key = match TrustKey::load(&key_file) {
        Ok(k) => k,
        Err(e) => return unkeyed(path, e),
    };
    let bytes = match read(path) {
        Ok(b) => b,
        Err(e) => return Loaded::empty(Integrity::Unverified, Some(e)),
    };
    let judged = bytes.map(|b| judge(&b, key.as_ref(), &key_file));
    let mut loaded = match judged {
        None => Loaded::empty(Integrity::New, None),
        Some(Ok((agents, integrity))) => Loaded {
            agents,
            integrity,
            ..Loaded::empty(integrity, None)
        },
        Some(Err(why)) => reject(path, &why, now),
    };
    match key.map_or_else(|| TrustKey::create(&key_file), Ok) {
        Ok(k) => loaded.key = Some(Arc::new(k)),
        Err(e) => {
            let why = format!("no trust key ({e}): trust is kept in memory and not saved");
            loaded.error = Some(loaded.error.map_or(why.clone(), |x| format!("{x}; {why}")));
            loaded.blocked = Some(why);
        }
    }
    loaded
}

/// A key file that is not a key: nothing can be verified or sealed, so nothing is trusted and
/// the file stays as it is for the operator to judge.
fn unkeyed(path: &Path, e: String) -> Loaded {
    let why = format!("{e}; {} is left as it is, trust starts from the configured defaults and is not saved until the key is restored (or both are removed)", path.display());
    Loaded {
        blocked: Some(why.clone()),
        ..Loaded::empty(Integrity::Unverified, Some(why))
    }
}

fn reject(path: &Path, why: &str, now: i64) -> Loaded {
    let aside = path.with_file_name(format!("trust.json.rejected-{now}"));
    match std::fs::rename(path, &aside) {
        Ok(()) => Loaded::empty(
            Integrity::Rejected,
            Some(format!(
                "{} was rejected ({why}); kept as {} and started from the configured defaults",
                path.display(),
                aside.display()
            )),
        ),
        Err(e) => {
            let report = format!("{} was rejected ({why}) and could not be moved aside ({e}); trust will not be saved over it", path.display());
            Loaded {
                blocked: Some(format!(
                    "{} was rejected and could not be moved aside; not overwriting it",
                    path.display()
                )),
                ..Loaded::empty(Integrity::Rejected, Some(report))
            }
        }
    }
}

/// The store as a process that does not persist it reads it: checked the same way, never
/// moved or re-signed (the process holding trust.lock does that), never a key made.
pub fn peek(path: &Path) -> Loaded {
    let key_file = seal::key_path(path);
    let key = match TrustKey::load(&key_file) {
        Ok(k) => k,
        Err(e) => return Loaded::empty(Integrity::Unverified, Some(e)),
    };
    let judged = match read(path) {
        Ok(None) => return Loaded::empty(Integrity::New, None),
        Ok(Some(b)) => judge(&b, key.as_ref(), &key_file),
        Err(e) => return Loaded::empty(Integrity::Unverified, Some(e)),
    };
    match judged {
        Ok((agents, integrity)) => Loaded {
            agents,
            notice: (integrity == Integrity::Legacy).then(|| format!("{} has no MAC (an older version wrote it); accepted: the process persisting it re-signs it", path.display())),
            ..Loaded::empty(integrity, None)
        },
        Err(why) => Loaded::empty(
            Integrity::Rejected,
            Some(format!("{} was rejected ({why}); this process starts from the configured defaults", path.display())),
        ),
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
    /// Why nothing may be written (None: writes go ahead).
    blocked: Option<String>,
}

impl Persister {
    /// `snapshot` serializes the current store (under the manager's lock, off the caller's thread).
    pub fn start(
        path: PathBuf,
        interval: Duration,
        snapshot: Snapshot,
        blocked: Option<String>,
    ) -> Persister {
        let signal = Arc::new(Signal::default());
        let (s, p, b) = (signal.clone(), path.clone(), blocked.clone());
        let thread = std::thread::Builder::new()
            .name("governance-trust".into())
            .spawn(move || run(&s, &p, interval, snapshot, b))
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
        *self = Persister::start(self.path.clone(), interval, snapshot, self.blocked.take());
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

fn run(
    signal: &Signal,
    path: &Path,
    interval: Duration,
    snapshot: Snapshot,
    blocked: Option<String>,
) {
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
        let result = match (&blocked, dirty) {
            (None, true) => snapshot().map_or(Ok(()), |bytes| write_atomic(path, &bytes)),
            (Some(why), true) => Err(why.clone()),
            (_, false) => Ok(()),
        };
        for w in waiting {
            let _ = w.send(result.clone());
        }
        if closed {
            return;
        }
    }
}
