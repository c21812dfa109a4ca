//! Lock files under the state directory. `audit/writer.lock` is taken by every audit writer on
//! the directory — the gateway, an `openclaw agent --local` run beside it, an engine built again
//! after a config edit — only while it appends, so all of them extend one chain instead of one
//! of them writing nothing. `trust.lock` is held by the one process that persists trust.json.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a writer waits for another to finish its append. An append holds the lock for a
/// write and at most one fsync; a holder that keeps it longer is stuck (or an older version of
/// this plugin that held the lock for its lifetime), and waiting on would stall whoever waits
/// for a durable record.
pub const WAIT: Duration = Duration::from_secs(3);

pub struct DirLock {
    file: Arc<File>,
    path: PathBuf,
}

/// Held until dropped (it owns a handle, so the writer stays free to mutate itself meanwhile).
pub struct Held(Arc<File>);

impl Drop for Held {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

impl DirLock {
    /// `dir/name`, created if missing; nothing is locked yet.
    pub fn open(dir: &Path, name: &str) -> Result<DirLock, String> {
        let path = dir.join(name);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(DirLock {
            file: Arc::new(file),
            path,
        })
    }

    /// The lock, waiting at most `wait` for the writer that holds it.
    pub fn acquire(&self, wait: Duration) -> Result<Held, String> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match self.file.try_lock() {
                Ok(()) => return Ok(Held(self.file.clone())),
                Err(std::fs::TryLockError::WouldBlock) if started.elapsed() < wait => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(format!(
                        "{} has been held by another process for {} ms",
                        self.path.display(),
                        wait.as_millis()
                    ))
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(format!("{}: {e}", self.path.display()))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_opener_waits_and_then_gets_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let a = DirLock::open(dir.path(), "writer.lock").unwrap();
        let b = DirLock::open(dir.path(), "writer.lock").unwrap();
        let held = a.acquire(WAIT).unwrap();
        let err = b.acquire(Duration::from_millis(30)).err().unwrap();
        assert!(err.contains("held by another process"), "{err}");
        drop(held);
        assert!(b.acquire(Duration::from_millis(30)).is_ok());
    }
}
