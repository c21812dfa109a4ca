//! Third-party verification of an audit directory: every line's hash against its bytes, the chain
//! links (`seq` contiguous, `prevHash` = previous `hash`), every signed checkpoint (signature,
//! one origin, sizes and times never going back, size not beyond the log, Merkle root at its size,
//! the consistency proof it carries), coverage (no record outside a checkpoint unless allowed),
//! a checkpoint saved earlier (`since`), and that removed records went by announced retention.

use super::checkpoint::{self, Checkpoint, VerifierKey};
use super::line;
use super::merkle::{self, from_hex, Frontier, Hash};
use super::store::{LogData, GENESIS};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;

mod checkpoints;
mod retention;
mod witnesses;

/// What must be covered by a signed checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Coverage {
    /// Every record (an auditor's default: a tail could have been replaced or appended).
    #[default]
    Full,
    /// Records after the last checkpoint are counted and reported, not a failure (a live log).
    AllowTail,
    /// The writer's own view of the log it writes (at start, or asked over the gateway): a tail,
    /// even before the first checkpoint, is what its next checkpoint will cover. Counted only.
    Live,
}

/// How to verify: the pinned key, what must be covered, and a checkpoint saved earlier.
#[derive(Default)]
pub struct Options<'a> {
    pub key: Option<&'a VerifierKey>,
    pub coverage: Coverage,
    /// The text of a signed checkpoint note the auditor kept: the log must extend it.
    pub since: Option<&'a str>,
    /// Witnesses whose cosignatures the auditor requires (`--witness-pubkey`).
    pub witnesses: &'a [crate::audit::witness::WitnessKey],
}

const MAX_PROBLEMS: usize = 100;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    pub valid: bool,
    pub records: u64,
    pub first_seq: u64,
    pub files: usize,
    pub head_hash: String,
    pub checkpoints: usize,
    pub last_checkpoint: Option<Checkpoint>,
    /// False when no public key was given: checkpoints were read but their signatures not checked.
    pub signatures_checked: bool,
    /// Records after the last checkpoint, which no signature vouches for yet.
    pub uncovered: u64,
    /// The saved checkpoint given with `since`, and how the log was shown to extend it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<checkpoints::Since>,
    /// What the named witnesses cosigned, and the records after what they all cosigned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witnessed: Option<witnesses::Witnessed>,
    /// The retention record that announced the removal of records before `firstSeq`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retention: Option<Value>,
    /// Breaks that the writer found earlier and recorded as `governance.chain.break`.
    pub recorded_breaks: Vec<Value>,
    pub torn_lines_recovered: usize,
    pub problems: Vec<Problem>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Head {
    seq: u64,
    prev_hash: String,
    verdict: String,
    #[serde(default)]
    timestamp: i64,
    #[serde(default)]
    details: Option<Value>,
}

/// A `governance.retention` record as the scan found it.
pub(super) struct RetentionRecord {
    seq: u64,
    timestamp: i64,
    details: Value,
}

struct Scan {
    expected: u64,
    prev: String,
    frontier: Frontier,
    roots: HashMap<u64, Hash>,
    wanted: Vec<u64>,
    problems: Vec<Problem>,
    breaks: Vec<Value>,
    torn: usize,
    retentions: Vec<RetentionRecord>,
}

impl Scan {
    fn problem(&mut self, seq: Option<u64>, file: &str, line: usize, reason: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem {
                seq,
                file: Some(file.to_string()),
                line: Some(line),
                reason: reason.into(),
            });
        }
    }

    fn record_root(&mut self) {
        if self.wanted.binary_search(&self.frontier.size).is_ok() {
            self.roots.insert(self.frontier.size, self.frontier.root());
        }
    }

    fn line(&mut self, file: &str, n: usize, bytes: &[u8]) {
        let (stored, canonical) = match line::decode(bytes) {
            Ok(x) => x,
            Err(e) => return self.problem(Some(self.expected), file, n, e),
        };
        if merkle::leaf(&canonical) != stored {
            self.problem(
                Some(self.expected),
                file,
                n,
                "hash does not match the record's contents (record altered)",
            );
        }
        match serde_json::from_slice::<Head>(&canonical) {
            Ok(h) => self.link(file, n, h),
            Err(e) => self.problem(
                Some(self.expected),
                file,
                n,
                format!("record is not valid JSON: {e}"),
            ),
        }
        self.prev = merkle::hex(&stored);
        self.frontier.push(stored);
        self.record_root();
    }

    fn link(&mut self, file: &str, n: usize, h: Head) {
        if h.seq != self.expected {
            let what = if h.seq < self.expected {
                "duplicated or out of order"
            } else {
                "records missing before it"
            };
            self.problem(
                Some(h.seq),
                file,
                n,
                format!(
                    "seq {} where {} was expected ({what})",
                    h.seq, self.expected
                ),
            );
        } else if h.prev_hash != self.prev {
            self.problem(Some(h.seq), file, n, "prevHash does not link to the previous record (record removed, inserted or from another log)");
        }
        match h.verdict.as_str() {
            "governance.chain.break" => self.breaks.push(h.details.unwrap_or(Value::Null)),
            "governance.chain.torn" => self.torn += 1,
            "governance.retention" => self.retentions.push(RetentionRecord {
                seq: h.seq,
                timestamp: h.timestamp,
                details: h.details.unwrap_or(Value::Null),
            }),
            _ => {}
        }
        self.expected = h.seq + 1;
    }
}

/// Verifies with the auditor's defaults: every record covered, nothing saved earlier.
pub fn verify(data: &LogData, key: Option<&VerifierKey>) -> VerifyReport {
    verify_with(
        data,
        &Options {
            key,
            ..Options::default()
        },
    )
}

pub fn verify_with(data: &LogData, opts: &Options) -> VerifyReport {
    let (notes, mut problems) = read_checkpoints(data, opts.key);
    let since = opts
        .since
        .map(|text| checkpoints::open_saved(text, opts.key));
    let mut wanted: Vec<u64> = notes.iter().map(|c| c.size).collect();
    if let Some(Ok(s)) = &since {
        wanted.push(s.size);
    }
    wanted.sort_unstable();
    let pruned_frontier = data.pruned.as_ref().and_then(|p| p.frontier());
    let mut scan = Scan {
        expected: data.pruned.as_ref().map_or(0, |p| p.through),
        prev: data
            .pruned
            .as_ref()
            .map_or_else(|| GENESIS.to_string(), |p| p.last_hash.clone()),
        frontier: pruned_frontier.clone().unwrap_or_default(),
        roots: HashMap::new(),
        wanted,
        problems: Vec::new(),
        breaks: Vec::new(),
        torn: 0,
        retentions: Vec::new(),
    };
    if data.pruned.is_some() && pruned_frontier.is_none() {
        problems.push(Problem::in_file(
            "pruned.json",
            "pruned.json has a malformed frontier",
        ));
    }
    let first_seq = scan.expected;
    scan.record_root();
    for (name, bytes) in &data.files {
        scan_file(&mut scan, name, bytes);
    }
    let records = scan.frontier.size;
    problems.extend(std::mem::take(&mut scan.problems));
    let log = checkpoints::Log {
        notes: &notes,
        roots: &scan.roots,
        records,
        first_seq,
    };
    log.check(&mut problems);
    let uncovered = log.check_coverage(opts.coverage, &mut problems);
    let since = since.map(|s| log.check_since(s, &mut problems));
    let retention = retention::check(data, &scan.retentions, &log, &mut problems);
    let witnessed = witnesses::check(data, opts, records, first_seq, &mut problems);
    problems.truncate(MAX_PROBLEMS);
    VerifyReport {
        valid: problems.is_empty(),
        records: records - first_seq,
        first_seq,
        files: data.files.len(),
        head_hash: scan.prev,
        checkpoints: notes.len(),
        last_checkpoint: notes.last().cloned(),
        signatures_checked: opts.key.is_some(),
        uncovered,
        since,
        witnessed,
        retention,
        recorded_breaks: scan.breaks,
        torn_lines_recovered: scan.torn,
        problems,
    }
}

impl Problem {
    fn in_file(file: &str, reason: impl Into<String>) -> Problem {
        Problem {
            seq: None,
            file: Some(file.into()),
            line: None,
            reason: reason.into(),
        }
    }
}

fn scan_file(scan: &mut Scan, name: &str, bytes: &[u8]) {
    let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    let tail = lines.pop().unwrap_or_default();
    for (i, l) in lines.iter().enumerate() {
        if l.is_empty() {
            scan.problem(Some(scan.expected), name, i + 1, "empty line");
        } else {
            scan.line(name, i + 1, l);
        }
    }
    if !tail.is_empty() {
        scan.problem(
            Some(scan.expected),
            name,
            lines.len() + 1,
            "last line has no newline (a torn write or a cut file)",
        );
    }
}

/// Parses the checkpoints, checking signatures when a key is given.
fn read_checkpoints(data: &LogData, key: Option<&VerifierKey>) -> (Vec<Checkpoint>, Vec<Problem>) {
    let mut problems = Vec::new();
    let problem = |reason: String| Problem::in_file("checkpoints", reason);
    let notes = match checkpoint::parse_notes(&data.checkpoints) {
        Ok(n) => n,
        Err(e) => return (Vec::new(), vec![problem(e)]),
    };
    let mut out = Vec::new();
    for (i, note) in notes.iter().enumerate() {
        let opened = match key {
            Some(k) => checkpoint::open(note, k),
            None => checkpoint::open_unchecked(note),
        };
        match opened {
            Ok(c) => out.push(c),
            Err(e) => problems.push(problem(format!("checkpoint {}: {e}", i + 1))),
        }
    }
    (out, problems)
}

/// The hash a record must link to, for tools that start mid-log.
pub fn parse_hash(s: &str) -> Option<Hash> {
    from_hex(s)
}
