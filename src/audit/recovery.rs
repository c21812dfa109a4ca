//! Start-up of a writer on an existing directory: move a torn last line aside, then find the
//! chain head, trusting the log over `chain-state.json` when the two disagree.

use super::checkpoint;
use super::line;
use super::merkle::{hex, Frontier, Hash};
use super::store::{daily_files, read_json, ChainState, Pruned, CHECKPOINTS, GENESIS};
use super::tail::Tail;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::fs::{self, OpenOptions};
use std::path::Path;

/// Cuts a partial last line (a write the crash interrupted, never acknowledged) off the newest
/// file and keeps its bytes in `<file>.torn-<ms>`. Returns the chain event's details.
pub fn recover_torn_tail(dir: &Path, now: i64) -> Result<Option<Value>, String> {
    let Some(last) = daily_files(dir).pop() else {
        return Ok(None);
    };
    let bytes = fs::read(&last).map_err(|e| format!("{}: {e}", last.display()))?;
    let keep = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    if keep == bytes.len() {
        return Ok(None);
    }
    cut_torn(&last, keep as u64, &bytes[keep..], now).map(Some)
}

/// Moves `torn` (the bytes of `file` after `keep`) to `<file>.torn-<ms>` and cuts the file at
/// `keep`; the details name both, for the `governance.chain.torn` record.
pub fn cut_torn(file: &Path, keep: u64, torn: &[u8], now: i64) -> Result<Value, String> {
    let aside = file.with_file_name(format!(
        "{}.torn-{now}",
        file.file_name().and_then(|n| n.to_str()).unwrap_or("audit")
    ));
    fs::write(&aside, torn).map_err(|e| format!("{}: {e}", aside.display()))?;
    let f = OpenOptions::new()
        .write(true)
        .open(file)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    f.set_len(keep)
        .and_then(|_| f.sync_all())
        .map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(json!({
        "file": file.file_name().and_then(|n| n.to_str()),
        "bytes": torn.len(),
        "sha256": format!("{:x}", Sha256::digest(torn)),
        "movedTo": aside.file_name().and_then(|n| n.to_str()),
    }))
}

/// The chain head a starting writer continues from, the torn line it moved aside (if any) and
/// where it saw the log end. A saved state that names where the log ended is trusted up to
/// there, and the writer reads only what came after (other writers may be appending); without
/// one, the log itself is read.
pub fn open_head(dir: &Path, now: i64) -> Result<(Head, Option<Value>, Tail), String> {
    let saved: Option<ChainState> = read_json(&dir.join("chain-state.json"));
    if let Some(s) = saved.filter(|s| s.head_file.is_some()) {
        let tail = Tail {
            file: s.head_file.clone(),
            len: s.head_len,
        };
        let present = tail
            .file
            .as_ref()
            .and_then(|f| fs::metadata(dir.join(f)).ok())
            .is_some_and(|m| m.len() >= tail.len);
        if let (Some(frontier), true) = (s.frontier(), present) {
            let head = Head {
                state: s,
                frontier,
                problem: None,
            };
            return Ok((head, None, tail));
        }
    }
    let torn = recover_torn_tail(dir, now)?;
    Ok((find_head(dir), torn, Tail::of(dir)))
}

pub struct Head {
    pub state: ChainState,
    pub frontier: Frontier,
    /// Set when the log is shorter than the recorded state: a break to record.
    pub problem: Option<String>,
}

struct LastLine {
    seq: u64,
    hash: Hash,
    timestamp: i64,
}

fn last_line(dir: &Path) -> Option<LastLine> {
    for file in daily_files(dir).iter().rev() {
        let bytes = fs::read(file).ok()?;
        if let Some(l) = bytes.split(|b| *b == b'\n').rev().find(|l| !l.is_empty()) {
            let (hash, canonical) = line::decode(l).ok()?;
            let v: Value = serde_json::from_slice(&canonical).ok()?;
            return Some(LastLine {
                seq: v["seq"].as_u64()?,
                hash,
                timestamp: v["timestamp"].as_i64().unwrap_or(0),
            });
        }
    }
    None
}

/// Every stored leaf hash, from the pruned frontier on.
fn rebuild_frontier(dir: &Path, pruned: Option<&Pruned>) -> Frontier {
    let mut f = pruned.and_then(|p| p.frontier()).unwrap_or_default();
    for file in daily_files(dir) {
        let Ok(bytes) = fs::read(&file) else { continue };
        for l in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            if let Ok((hash, _)) = line::decode(l) {
                f.push(hash);
            }
        }
    }
    f
}

pub fn find_head(dir: &Path) -> Head {
    let saved: Option<ChainState> = read_json(&dir.join("chain-state.json"));
    let pruned: Option<Pruned> = read_json(&dir.join("pruned.json"));
    let last = last_line(dir);
    let mut state = saved.clone().unwrap_or_default();
    let matches = |s: &ChainState, l: &LastLine| s.seq == l.seq + 1 && s.last_hash == hex(&l.hash);
    let (frontier, problem) = match (&saved, &last) {
        (Some(s), Some(l)) if matches(s, l) && s.frontier().is_some() => {
            (s.frontier().unwrap_or_default(), None)
        }
        (_, Some(l)) => {
            let f = rebuild_frontier(dir, pruned.as_ref());
            let shorter = saved.as_ref().filter(|s| s.seq > l.seq + 1).map(|s| {
                format!("chain-state.json counts {} records but the log ends at seq {}: records were removed from the end", s.seq, l.seq)
            });
            state.seq = l.seq + 1;
            state.last_hash = hex(&l.hash);
            state.last_timestamp = l.timestamp;
            (f, shorter)
        }
        (_, None) => {
            let base = pruned.as_ref().map_or(0, |p| p.through);
            let missing = saved.as_ref().filter(|s| s.seq > base).map(|s| {
                format!("chain-state.json counts {} records but no audit file holds any: the log was removed", s.seq)
            });
            state.seq = base;
            state.last_hash = pruned
                .as_ref()
                .map_or_else(|| GENESIS.to_string(), |p| p.last_hash.clone());
            (
                pruned
                    .as_ref()
                    .and_then(|p| p.frontier())
                    .unwrap_or_default(),
                missing,
            )
        }
    };
    state.record_count = state.seq;
    if state.origin.is_empty() {
        state.origin = origin_from_checkpoints(dir).unwrap_or_else(new_origin);
    }
    if state.last_checkpoint_size == 0 {
        state.last_checkpoint_size = last_checkpoint_size(dir).unwrap_or(0);
    }
    Head {
        state,
        frontier,
        problem,
    }
}

/// The leaf hashes of records `[from, from + count)`, read from the newest files back: a
/// restarted writer needs them to prove its next checkpoint consistent with its last one.
/// `None` when the log does not hold exactly those records.
pub fn leaves_since(dir: &Path, from: u64, count: u64) -> Option<Vec<Hash>> {
    #[derive(serde::Deserialize)]
    struct Seq {
        seq: u64,
    }
    let mut found: Vec<(u64, Hash)> = Vec::new();
    for file in daily_files(dir).iter().rev() {
        let bytes = fs::read(file).ok()?;
        let mut lines = Vec::new();
        for l in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let (hash, canonical) = line::decode(l).ok()?;
            lines.push((serde_json::from_slice::<Seq>(&canonical).ok()?.seq, hash));
        }
        let reached = lines.first().is_some_and(|(seq, _)| *seq <= from);
        lines.append(&mut found);
        found = lines;
        if reached {
            break;
        }
    }
    let leaves: Vec<Hash> = found
        .into_iter()
        .skip_while(|(seq, _)| *seq < from)
        .take(count as usize)
        .enumerate()
        .map(|(i, (seq, h))| (seq == from + i as u64).then_some(h))
        .collect::<Option<_>>()?;
    (leaves.len() as u64 == count).then_some(leaves)
}

fn origin_from_checkpoints(dir: &Path) -> Option<String> {
    let text = fs::read_to_string(dir.join(CHECKPOINTS)).ok()?;
    let notes = checkpoint::parse_notes(&text).ok()?;
    checkpoint::open_unchecked(notes.last()?)
        .ok()
        .map(|c| c.origin)
}

fn last_checkpoint_size(dir: &Path) -> Option<u64> {
    let text = fs::read_to_string(dir.join(CHECKPOINTS)).ok()?;
    let notes = checkpoint::parse_notes(&text).ok()?;
    checkpoint::open_unchecked(notes.last()?)
        .ok()
        .map(|c| c.size)
}

fn new_origin() -> String {
    let mut id = [0u8; 8];
    let _ = getrandom::fill(&mut id);
    format!(
        "openclaw-governance/{}",
        id.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}
