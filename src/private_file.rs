//! Key files: created once, readable by the owner only (0600 on Unix), synced before use.
//! The audit signing key and the trust store's MAC key are both written this way.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes `text` to a new file at `path` (an existing one is an error), owner-only.
pub fn create(path: &Path, text: &str) -> std::io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
}
