//! The audit directory: daily `YYYY-MM-DD.jsonl` files, `chain-state.json` (the head and the
//! Merkle frontier, so a restart need not re-read the log), `pruned.json` (what retention removed)
//! and `checkpoints` (signed notes).

use super::merkle::{from_hex, hex, Frontier, Hash, Leaves};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";
pub const CHECKPOINTS: &str = "checkpoints";
/// Witnesses' cosignatures: checkpoint notes with a witness's signature line added.
pub const COSIGNATURES: &str = "cosignatures";

/// Daily files in chain order (their names sort by date).
pub fn daily_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_daily_name)
        })
        .collect();
    files.sort();
    files
}

fn is_daily_name(name: &str) -> bool {
    let b = name.as_bytes();
    name.len() == 16
        && name.ends_with(".jsonl")
        && b[4] == b'-'
        && b[7] == b'-'
        && b[..10]
            .iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ChainState {
    /// Next seq to write (= records in the chain).
    pub seq: u64,
    pub last_hash: String,
    pub last_timestamp: i64,
    pub record_count: u64,
    pub origin: String,
    /// Roots of the perfect subtrees covering records [0, seq), largest first.
    pub frontier: Vec<String>,
    pub last_checkpoint_size: u64,
    /// Where the log ended when this state was saved (file and length), so a writer that starts
    /// beside another reads only what was appended since instead of the whole log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_file: Option<String>,
    #[serde(default)]
    pub head_len: u64,
    /// The frontier at the last checkpoint this writer signed: the base from which the next
    /// checkpoint's consistency proof is computed (with the leaves appended since).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_base: Option<FrontierState>,
}

/// A frontier as saved: its size and its subtree roots in hex.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct FrontierState {
    pub size: u64,
    pub nodes: Vec<String>,
}

impl FrontierState {
    pub fn of(f: &Frontier) -> FrontierState {
        FrontierState {
            size: f.size,
            nodes: f.nodes.iter().map(hex).collect(),
        }
    }

    pub fn frontier(&self) -> Option<Frontier> {
        let nodes: Option<Vec<Hash>> = self.nodes.iter().map(|h| from_hex(h)).collect();
        let f = Frontier {
            size: self.size,
            nodes: nodes?,
        };
        (f.nodes.len() == self.size.count_ones() as usize).then_some(f)
    }
}

impl ChainState {
    pub fn frontier(&self) -> Option<Frontier> {
        let nodes: Option<Vec<Hash>> = self.frontier.iter().map(|h| from_hex(h)).collect();
        let f = Frontier {
            size: self.seq,
            nodes: nodes?,
        };
        (f.nodes.len() == self.seq.count_ones() as usize).then_some(f)
    }

    pub fn set_frontier(&mut self, f: &Frontier) {
        self.frontier = f.nodes.iter().map(hex).collect();
    }
}

/// What retention removed: records [0, through) are gone, vouched for by this frontier.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Pruned {
    pub through: u64,
    pub last_hash: String,
    pub frontier: Vec<String>,
}

impl Pruned {
    pub fn frontier(&self) -> Option<Frontier> {
        let nodes: Option<Vec<Hash>> = self.frontier.iter().map(|h| from_hex(h)).collect();
        Some(Frontier {
            size: self.through,
            nodes: nodes?,
        })
    }
}

pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Option<T> {
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

/// Temp file, fsync, rename: a crash leaves the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    let run = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent() {
            if let Ok(d) = fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    };
    run().map_err(|e| format!("{}: {e}", path.display()))
}

/// Everything a verifier reads, in memory (so tests can tamper with bytes directly).
#[derive(Debug, Clone, Default)]
pub struct LogData {
    pub files: Vec<(String, Vec<u8>)>,
    pub checkpoints: String,
    pub pruned: Option<Pruned>,
    /// Witnesses' cosignatures (empty when no witness has run).
    pub cosignatures: String,
}

impl LogData {
    /// The log's leaves, after the pruned frontier when retention removed some, indexed for
    /// fast proofs.
    pub fn leaves(&self) -> Result<Leaves, String> {
        let mut leaves = match &self.pruned {
            None => Leaves::new(),
            Some(p) => p
                .frontier()
                .as_ref()
                .and_then(Leaves::after)
                .ok_or("pruned.json's frontier is malformed")?,
        };
        for (name, bytes) in &self.files {
            for l in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                let (hash, _) = super::line::decode(l).map_err(|e| format!("{name}: {e}"))?;
                leaves.push(hash);
            }
        }
        Ok(leaves)
    }

    pub fn read(dir: &Path) -> Result<LogData, String> {
        LogData::read_until(dir, None)
    }

    /// The log as it stood at `tail` (another writer may be appending while it is read): no file
    /// after the tail's, and the tail's file only up to its length.
    pub fn read_until(dir: &Path, tail: Option<&super::tail::Tail>) -> Result<LogData, String> {
        if !dir.is_dir() {
            return Err(format!("{}: no such audit directory", dir.display()));
        }
        let mut files = Vec::new();
        for p in daily_files(dir) {
            let name = p
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let end = match tail.and_then(|t| t.file.as_deref()) {
                Some(last) if name.as_str() > last => break,
                Some(last) if name == last => tail.map(|t| t.len),
                _ => None,
            };
            let mut bytes = fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            if let Some(end) = end {
                bytes.truncate(end as usize);
            }
            files.push((name, bytes));
        }
        Ok(LogData {
            files,
            checkpoints: fs::read_to_string(dir.join(CHECKPOINTS)).unwrap_or_default(),
            pruned: read_json(&dir.join("pruned.json")),
            cosignatures: fs::read_to_string(dir.join(COSIGNATURES)).unwrap_or_default(),
        })
    }
}
