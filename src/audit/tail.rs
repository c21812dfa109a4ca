//! Where the log ends as this writer last saw it, and the lines other writers on the same
//! directory appended since. Each writer reads them (under `writer.lock`) before it appends, so
//! its records continue the one chain and its checkpoints cover everyone's records.

use super::line;
use super::merkle::Hash;
use super::store::daily_files;
use serde::Deserialize;
use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The end of the log: the newest daily file and its length in bytes (always at a line end).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tail {
    pub file: Option<String>,
    pub len: u64,
}

impl Tail {
    /// The log's end now (the directory's newest daily file).
    pub fn of(dir: &Path) -> Tail {
        match daily_files(dir).pop() {
            Some(p) => Tail {
                len: fs::metadata(&p).map(|m| m.len()).unwrap_or(0),
                file: p.file_name().and_then(|n| n.to_str()).map(String::from),
            },
            None => Tail::default(),
        }
    }

    /// `YYYY-MM-DD` of the newest file.
    pub fn day(&self) -> Option<&str> {
        self.file.as_deref().and_then(|f| f.get(..10))
    }
}

/// One line another writer appended.
pub struct Leaf {
    pub hash: Hash,
    pub seq: u64,
    pub timestamp: i64,
}

/// What changed since a [`Tail`].
#[derive(Default)]
pub struct Appended {
    pub leaves: Vec<Leaf>,
    pub tail: Tail,
    /// A partial last line (a writer died mid-append): the file, the length to keep, the bytes.
    pub torn: Option<(String, u64, Vec<u8>)>,
    /// The log is shorter than it was: something removed records. The writer records a break.
    pub shrunk: Option<String>,
}

#[derive(Deserialize)]
struct SeqAndTime {
    seq: u64,
    #[serde(default)]
    timestamp: i64,
}

/// Lines added after `tail`, in chain order.
pub fn read_since(dir: &Path, tail: &Tail) -> Result<Appended, String> {
    let mut out = Appended {
        tail: tail.clone(),
        ..Appended::default()
    };
    for path in daily_files(dir) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let from = match tail.file.as_deref() {
            Some(t) if name.as_str() < t => continue,
            Some(t) if name == t => tail.len,
            _ => 0,
        };
        let len = fs::metadata(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len();
        if len < from {
            out.shrunk = Some(format!(
                "{name} is {len} bytes but {from} had been written: records were removed from the end"
            ));
            return Ok(out);
        }
        let bytes = read_range(&path, from, len)?;
        let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        for l in bytes[..complete]
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
        {
            out.leaves
                .push(leaf(l).map_err(|e| format!("{name}: {e}"))?);
        }
        if complete < bytes.len() {
            out.torn = Some((
                name.clone(),
                from + complete as u64,
                bytes[complete..].to_vec(),
            ));
        }
        out.tail = Tail {
            file: Some(name),
            len: from + complete as u64,
        };
    }
    Ok(out)
}

fn read_range(path: &Path, from: u64, to: u64) -> Result<Vec<u8>, String> {
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut f = fs::File::open(path).map_err(io)?;
    f.seek(SeekFrom::Start(from)).map_err(io)?;
    let mut bytes = Vec::with_capacity((to - from) as usize);
    f.take(to - from).read_to_end(&mut bytes).map_err(io)?;
    Ok(bytes)
}

fn leaf(l: &[u8]) -> Result<Leaf, String> {
    let (hash, canonical) = line::decode(l).map_err(str::to_string)?;
    let head: SeqAndTime =
        serde_json::from_slice(&canonical).map_err(|e| format!("unreadable record: {e}"))?;
    Ok(Leaf {
        hash,
        seq: head.seq,
        timestamp: head.timestamp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of(seq: u64) -> Vec<u8> {
        let canonical = format!("{{\"prevHash\":\"x\",\"seq\":{seq},\"timestamp\":{seq}}}");
        line::encode(canonical.as_bytes()).1
    }

    #[test]
    fn reads_only_what_came_after_the_tail_across_files() {
        let dir = tempfile::tempdir().unwrap();
        let day1 = dir.path().join("2026-01-01.jsonl");
        fs::write(&day1, [line_of(0), line_of(1)].concat()).unwrap();
        let tail = Tail::of(dir.path());
        assert_eq!(tail.file.as_deref(), Some("2026-01-01.jsonl"));
        let mut more = fs::read(&day1).unwrap();
        more.extend(line_of(2));
        fs::write(&day1, more).unwrap();
        fs::write(dir.path().join("2026-01-02.jsonl"), line_of(3)).unwrap();
        let got = read_since(dir.path(), &tail).unwrap();
        let seqs: Vec<u64> = got.leaves.iter().map(|l| l.seq).collect();
        assert_eq!(seqs, [2, 3]);
        assert_eq!(got.tail, Tail::of(dir.path()));
        assert!(got.torn.is_none() && got.shrunk.is_none());
    }

    #[test]
    fn a_partial_last_line_is_reported_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("2026-01-01.jsonl");
        fs::write(&file, [line_of(0), b"{\"hash\":\"ab".to_vec()].concat()).unwrap();
        let got = read_since(dir.path(), &Tail::default()).unwrap();
        assert_eq!(got.leaves.len(), 1);
        let (name, keep, bytes) = got.torn.unwrap();
        assert_eq!(name, "2026-01-01.jsonl");
        assert_eq!(keep, line_of(0).len() as u64);
        assert_eq!(bytes, b"{\"hash\":\"ab");
    }

    #[test]
    fn a_shorter_log_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("2026-01-01.jsonl");
        fs::write(&file, [line_of(0), line_of(1)].concat()).unwrap();
        let tail = Tail::of(dir.path());
        fs::write(&file, line_of(0)).unwrap();
        assert!(read_since(dir.path(), &tail).unwrap().shrunk.is_some());
    }
}
