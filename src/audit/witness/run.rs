//! One witness run: read the log's `checkpoints` (nothing else: a copy of that one file on
//! another machine will do), accept each note only when its consistency proof shows it extends
//! the newest tree this witness has vouched for, and cosign what it accepted. A history the log
//! key re-signed after a rewrite cannot be linked to what the witness saw, so it is refused.

use super::{CosignerKey, WitnessError};
use crate::audit::checkpoint::{self, Checkpoint, SignedNote, VerifierKey};
use crate::audit::merkle::{self, Hash};
use crate::audit::store::{self, CHECKPOINTS, COSIGNATURES};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a witness remembers between runs, beside its key: the log it follows and the newest
/// tree it cosigned. Without it, a witness would trust whatever history it is shown next.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct State {
    origin: String,
    log_key: String,
    size: u64,
    root_hash: String,
    time: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The witness's verifier key: what auditors pass to `audit verify --witness-pubkey`.
    pub witness: String,
    pub origin: Option<String>,
    /// Notes in the checkpoints file.
    pub checkpoints: usize,
    /// Sizes of the checkpoints this run cosigned, oldest first.
    pub cosigned: Vec<u64>,
    /// The newest tree this witness has cosigned for the log (0: none yet).
    pub size: u64,
    /// Checkpoints beyond what was accepted before them that carry no proof from it (a second
    /// writer's checkpoint linked to its own earlier one): not cosigned, not a refusal.
    pub skipped: Vec<u64>,
    /// No state before this run: the log key was pinned and the first checkpoint trusted.
    pub first_run: bool,
    pub time: u64,
}

/// The tree a note describes, by size and root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tree {
    size: u64,
    root: Hash,
}

/// `<key file>.state.json`: the state lives beside the key it belongs to.
pub fn state_path(key_file: &Path) -> PathBuf {
    let mut name = key_file.as_os_str().to_os_string();
    name.push(".state.json");
    PathBuf::from(name)
}

/// Checks the log's checkpoints in `dir` and cosigns those that extend what this witness saw
/// before; `now` is the cosignature time in seconds. On a refusal nothing is written.
pub fn witness(
    dir: &Path,
    key_file: &Path,
    log_key: Option<VerifierKey>,
    name: Option<&str>,
    now: u64,
) -> Result<Report, WitnessError> {
    let _held = lock(key_file)?;
    let state_file = state_path(key_file);
    let state = read_state(&state_file)?;
    // Before the key: a run bound to fail creates nothing.
    let log_key = pinned_key(state.as_ref(), log_key)?;
    let key = CosignerKey::load_or_create(key_file, name).map_err(WitnessError::Key)?;
    let text = read_checkpoints(dir, state.is_some())?;
    let notes = checkpoint::parse_notes(complete_notes(&text))
        .map_err(|e| WitnessError::Checkpoints(format!("{}: {e}", dir.display())))?;
    let origin = state.as_ref().map(|s| s.origin.clone()).or_else(|| {
        checkpoint::open_unchecked(notes.first()?)
            .ok()
            .map(|c| c.origin)
    });
    let mut report = Report {
        witness: key.vkey(),
        origin: origin.clone(),
        checkpoints: notes.len(),
        cosigned: Vec::new(),
        size: state.as_ref().map_or(0, |s| s.size),
        skipped: Vec::new(),
        first_run: state.is_none(),
        time: now,
    };
    let Some(origin) = origin else {
        return Ok(report);
    };
    let opened = open_all(&notes, &log_key, &origin)?;
    let start = match &state {
        Some(s) => Tree {
            size: s.size,
            root: merkle::from_hex(&s.root_hash).ok_or_else(|| {
                WitnessError::State(format!("{}: bad rootHash", state_file.display()))
            })?,
        },
        None => Tree {
            size: 0,
            root: merkle::empty_root(),
        },
    };
    let walked = walk(&opened, start)?;
    report.skipped = walked.skipped.iter().map(|i| opened[*i].size).collect();
    if walked.accepted.is_empty() {
        return Ok(report);
    }
    let text: String = walked
        .accepted
        .iter()
        .map(|i| format!("{}\n", key.cosign(&notes[*i], now).text()))
        .collect();
    append_synced(&dir.join(COSIGNATURES), &text)?;
    let saved = State {
        origin,
        log_key: log_key.vkey(),
        size: walked.latest.size,
        root_hash: merkle::hex(&walked.latest.root),
        time: now,
    };
    let bytes =
        serde_json::to_vec_pretty(&saved).map_err(|e| WitnessError::State(e.to_string()))?;
    store::write_atomic(&state_file, &bytes).map_err(WitnessError::State)?;
    report.cosigned = walked.accepted.iter().map(|i| opened[*i].size).collect();
    report.size = walked.latest.size;
    Ok(report)
}

/// Two runs of one witness at once would cosign twice and race on the state.
fn lock(key_file: &Path) -> Result<crate::lockfile::Held, WitnessError> {
    let dir = key_file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = key_file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("witness");
    fs::create_dir_all(dir).map_err(|e| WitnessError::State(format!("{}: {e}", dir.display())))?;
    crate::lockfile::DirLock::open(dir, &format!("{name}.lock"))
        .and_then(|l| l.acquire(crate::lockfile::WAIT))
        .map_err(WitnessError::State)
}

fn read_state(path: &Path) -> Result<Option<State>, WitnessError> {
    match fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| WitnessError::State(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(WitnessError::State(format!("{}: {e}", path.display()))),
    }
}

/// The log key: pinned in the state at the first run, and never replaced by another.
fn pinned_key(
    state: Option<&State>,
    given: Option<VerifierKey>,
) -> Result<VerifierKey, WitnessError> {
    match (state, given) {
        (None, None) => Err(WitnessError::NoLogKey),
        (None, Some(k)) => Ok(k),
        (Some(s), Some(k)) if k.vkey() != s.log_key => Err(WitnessError::LogKeyChanged {
            pinned: s.log_key.clone(),
            given: k.vkey(),
        }),
        (Some(_), Some(k)) => Ok(k),
        (Some(s), None) => {
            VerifierKey::parse(&s.log_key).map_err(|e| WitnessError::State(format!("logKey: {e}")))
        }
    }
}

/// The checkpoints file; once something was cosigned, a missing one is read as empty (and
/// refused as such), before that it is more likely the wrong directory.
fn read_checkpoints(dir: &Path, cosigned_before: bool) -> Result<String, WitnessError> {
    let path = dir.join(CHECKPOINTS);
    match fs::read_to_string(&path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && cosigned_before && dir.is_dir() => {
            Ok(String::new())
        }
        Err(e) => Err(WitnessError::Checkpoints(format!(
            "{}: {e}",
            path.display()
        ))),
    }
}

/// The notes the writer finished: one may be half appended while a live log is read, and its
/// end is what is cut off (each note ends with a signature line and a blank line).
pub(super) fn complete_notes(text: &str) -> &str {
    let mut end = text.len();
    while let Some(i) = text[..end].rfind("\n\n") {
        let last_line = text[..i].rsplit('\n').next().unwrap_or_default();
        if last_line.starts_with('\u{2014}') {
            return &text[..i + 2];
        }
        end = i;
    }
    ""
}

/// Every note must be signed by the log key and name the log's origin: one that is not is a
/// tampered or foreign file, and cosigning around it would hide that.
fn open_all(
    notes: &[SignedNote],
    key: &VerifierKey,
    origin: &str,
) -> Result<Vec<Checkpoint>, WitnessError> {
    notes
        .iter()
        .enumerate()
        .map(|(i, note)| {
            let c = checkpoint::open(note, key).map_err(|reason| WitnessError::BadSignature {
                index: i + 1,
                reason,
            })?;
            match c.origin == origin {
                true => Ok(c),
                false => Err(WitnessError::OtherLog {
                    index: i + 1,
                    origin: c.origin,
                    pinned: origin.to_string(),
                }),
            }
        })
        .collect()
}

struct Walked {
    accepted: Vec<usize>,
    skipped: Vec<usize>,
    latest: Tree,
}

/// Accepts, in file order, each note proven to extend the newest tree accepted so far (at
/// first the one the witness cosigned last; the empty tree on a first run). Only the newest is
/// a base, never an older one: two trees that each extend an older tree may still fork from
/// each other. A note of a size already seen with another root is a fork, and the newest note
/// must end up accepted, or the history shown is not the one the witness vouched for.
fn walk(notes: &[Checkpoint], start: Tree) -> Result<Walked, WitnessError> {
    let mut latest = start;
    let mut seen: HashMap<u64, (Hash, bool)> = HashMap::from([(start.size, (start.root, true))]);
    let mut walked = Walked {
        accepted: Vec::new(),
        skipped: Vec::new(),
        latest,
    };
    for (i, c) in notes.iter().enumerate() {
        if let Some((root, before)) = seen.get(&c.size) {
            if *root != c.root_hash {
                return Err(WitnessError::Fork {
                    index: i + 1,
                    size: c.size,
                    before_this_run: *before,
                });
            }
            continue;
        }
        if c.size < latest.size {
            continue;
        }
        match extends(latest, c) {
            Ok(()) => {
                latest = Tree {
                    size: c.size,
                    root: c.root_hash,
                };
                seen.insert(c.size, (c.root_hash, false));
                walked.accepted.push(i);
            }
            Err(_) => walked.skipped.push(i),
        }
    }
    walked.latest = latest;
    let Some((last, newest)) = notes.iter().enumerate().next_back() else {
        return match start.size {
            0 => Ok(walked),
            n => Err(WitnessError::Emptied { cosigned: n }),
        };
    };
    if latest.size == newest.size && latest.root == newest.root_hash {
        return Ok(walked);
    }
    let why = match newest.size < latest.size {
        true => "it is older than that tree: checkpoints were removed or replayed".to_string(),
        false => extends(latest, newest).err().unwrap_or_default(),
    };
    Err(WitnessError::Unlinked {
        index: last + 1,
        size: newest.size,
        cosigned: latest.size,
        why,
    })
}

/// Whether `c`'s consistency proof starts at `base` and verifies. Every tree extends the empty
/// one, so a first run trusts the first note (and checks every proof after it).
fn extends(base: Tree, c: &Checkpoint) -> Result<(), String> {
    if base.size == 0 {
        return Ok(());
    }
    let Some(link) = &c.link else {
        return Err("it carries no consistency proof".into());
    };
    if link.from != base.size {
        return Err(format!(
            "its consistency proof starts at size {}, not there",
            link.from
        ));
    }
    match merkle::verify_consistency(base.size, c.size, &base.root, &c.root_hash, &link.proof) {
        true => Ok(()),
        false => Err("its consistency proof from there does not verify".into()),
    }
}

/// Appends and syncs: a cosignature reported is a cosignature on disk.
fn append_synced(path: &Path, text: &str) -> Result<(), WitnessError> {
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_data()))
        .map_err(|e| WitnessError::Write(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::checkpoint::{Link, SignerKey};
    use crate::audit::merkle::Tree as MerkleTree;

    const NOW: u64 = 1_800_000_000;

    struct Log {
        dir: tempfile::TempDir,
        key: SignerKey,
    }

    impl Log {
        fn new() -> Log {
            let dir = tempfile::tempdir().unwrap();
            let key = SignerKey::load_or_create(&dir.path().join("log.key")).unwrap();
            Log { dir, key }
        }

        fn vkey(&self) -> VerifierKey {
            VerifierKey::parse(&self.key.public_key()).unwrap()
        }

        fn path(&self, name: &str) -> PathBuf {
            self.dir.path().join(name)
        }

        /// A signed note over the first `size` of `leaves`, its proof from `from` if given.
        fn note(&self, leaves: &[Hash], size: u64, from: Option<u64>) -> String {
            let tree = MerkleTree::new(0, leaves, &[]);
            let mut cp = Checkpoint::new("example/log", size, tree.root(size).unwrap(), 1);
            cp.link = from.map(|m| Link {
                from: m,
                proof: tree.consistency(m, size).unwrap(),
            });
            format!("{}\n", self.key.sign(&cp))
        }

        fn write(&self, notes: &[String]) {
            fs::write(self.path(CHECKPOINTS), notes.concat()).unwrap();
        }

        fn run(&self, key: Option<VerifierKey>) -> Result<Report, WitnessError> {
            witness(self.dir.path(), &self.path("w.key"), key, Some("w"), NOW)
        }

        fn cosignatures(&self) -> String {
            fs::read_to_string(self.path(COSIGNATURES)).unwrap_or_default()
        }
    }

    fn leaves(tag: u8, n: u8) -> Vec<Hash> {
        (0..n).map(|i| merkle::leaf(&[tag, i])).collect()
    }

    #[test]
    fn a_growing_log_is_cosigned_once_per_checkpoint_across_runs() {
        let log = Log::new();
        let l = leaves(0, 8);
        let mut notes = vec![
            log.note(&l, 2, None),
            log.note(&l, 4, Some(2)),
            log.note(&l, 6, Some(4)),
        ];
        log.write(&notes);
        let first = log.run(Some(log.vkey())).unwrap();
        assert_eq!(
            (first.cosigned.clone(), first.size, first.first_run),
            (vec![2, 4, 6], 6, true)
        );
        notes.push(log.note(&l, 8, Some(6)));
        log.write(&notes);
        let second = log.run(None).unwrap();
        assert_eq!(
            (second.cosigned.clone(), second.first_run),
            (vec![8], false)
        );
        let before = log.cosignatures();
        assert!(log.run(None).unwrap().cosigned.is_empty());
        assert_eq!(log.cosignatures(), before, "nothing new, nothing appended");
        let w = super::super::WitnessKey::parse(&first.witness).unwrap();
        let cosigned = super::super::read_cosignatures(&before).unwrap();
        assert_eq!(cosigned.len(), 4);
        assert!(cosigned.iter().all(|n| w.cosigned(n) == Some(NOW)));
        assert!(cosigned
            .iter()
            .all(|n| checkpoint::open(n, &log.vkey()).is_ok()));
    }

    #[test]
    fn a_rewritten_history_is_refused_and_nothing_is_written() {
        let log = Log::new();
        let l = leaves(0, 8);
        log.write(&[log.note(&l, 2, None), log.note(&l, 4, Some(2))]);
        log.run(Some(log.vkey())).unwrap();
        let (cosigned, state) = (
            log.cosignatures(),
            fs::read(state_path(&log.path("w.key"))).unwrap(),
        );
        // Re-signed with the real key, with proofs consistent among themselves.
        let r = leaves(1, 8);
        log.write(&[
            log.note(&r, 2, None),
            log.note(&r, 4, Some(2)),
            log.note(&r, 6, Some(4)),
        ]);
        let e = log.run(None).unwrap_err();
        assert!(
            matches!(
                e,
                WitnessError::Fork {
                    index: 2,
                    size: 4,
                    before_this_run: true
                }
            ),
            "{e}"
        );
        assert!(e.is_refusal());
        // Sizes that avoid the cosigned one: the newest cannot be linked to it.
        log.write(&[
            log.note(&r, 3, None),
            log.note(&r, 5, Some(3)),
            log.note(&r, 7, Some(5)),
        ]);
        let e = log.run(None).unwrap_err();
        assert!(
            matches!(
                e,
                WitnessError::Unlinked {
                    index: 3,
                    size: 7,
                    cosigned: 4,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("starts at size 5"), "{e}");
        assert_eq!(log.cosignatures(), cosigned);
        assert_eq!(fs::read(state_path(&log.path("w.key"))).unwrap(), state);
    }

    #[test]
    fn a_tree_that_extends_only_an_older_one_is_no_base_even_on_a_first_run() {
        let log = Log::new();
        let l = leaves(0, 8);
        let mut fork = l[..4].to_vec();
        fork.extend(leaves(2, 4));
        log.write(&[
            log.note(&l, 2, None),
            log.note(&l, 4, Some(2)),
            log.note(&l, 6, Some(4)),
            log.note(&fork, 8, Some(4)),
        ]);
        let e = log.run(Some(log.vkey())).unwrap_err();
        assert!(
            matches!(
                e,
                WitnessError::Unlinked {
                    index: 4,
                    size: 8,
                    cosigned: 6,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(log.cosignatures(), "");
    }

    #[test]
    fn a_checkpoint_proven_from_an_older_one_only_is_skipped_not_refused() {
        // Two writers: the second links its checkpoint to its own earlier one.
        let log = Log::new();
        let l = leaves(0, 8);
        log.write(&[
            log.note(&l, 2, None),
            log.note(&l, 4, Some(2)),
            log.note(&l, 6, Some(2)),
            log.note(&l, 8, Some(4)),
        ]);
        let r = log.run(Some(log.vkey())).unwrap();
        assert_eq!((r.cosigned, r.skipped), (vec![2, 4, 8], vec![6]));
    }

    #[test]
    fn removed_or_replayed_checkpoints_are_refused() {
        let log = Log::new();
        let l = leaves(0, 8);
        let notes = [
            log.note(&l, 2, None),
            log.note(&l, 4, Some(2)),
            log.note(&l, 6, Some(4)),
        ];
        log.write(&notes);
        log.run(Some(log.vkey())).unwrap();
        log.write(&notes[..2]);
        let e = log.run(None).unwrap_err();
        assert!(e.to_string().contains("older than that tree"), "{e}");
        log.write(&[]);
        assert!(matches!(
            log.run(None),
            Err(WitnessError::Emptied { cosigned: 6 })
        ));
        fs::remove_file(log.path(CHECKPOINTS)).unwrap();
        assert!(matches!(
            log.run(None),
            Err(WitnessError::Emptied { cosigned: 6 })
        ));
        log.write(&[notes[0].clone(), notes[2].clone(), notes[1].clone()]);
        let e = log.run(None).unwrap_err();
        assert!(
            matches!(
                e,
                WitnessError::Unlinked {
                    index: 3,
                    size: 4,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn a_half_appended_note_waits_for_the_next_run() {
        let log = Log::new();
        let l = leaves(0, 4);
        let (a, b) = (log.note(&l, 2, None), log.note(&l, 4, Some(2)));
        for cut in [b.find("\n\n").unwrap() + 2, b.len() - 10, b.len() - 1] {
            assert_eq!(complete_notes(&format!("{a}{}", &b[..cut])), a);
        }
        fs::write(log.path(CHECKPOINTS), format!("{a}{}", &b[..b.len() - 1])).unwrap();
        assert_eq!(log.run(Some(log.vkey())).unwrap().cosigned, vec![2]);
        log.write(&[a, b]);
        assert_eq!(log.run(None).unwrap().cosigned, vec![4]);
    }

    #[test]
    fn the_key_and_its_state_go_into_a_directory_made_for_them() {
        let log = Log::new();
        log.write(&[log.note(&leaves(0, 2), 2, None)]);
        let key = log.path("new/dir/w.key");
        let r = witness(log.dir.path(), &key, Some(log.vkey()), None, NOW).unwrap();
        assert_eq!(r.cosigned, vec![2]);
        assert!(key.is_file() && state_path(&key).is_file());
    }

    #[test]
    fn the_log_key_is_pinned_at_the_first_run() {
        let log = Log::new();
        let l = leaves(0, 4);
        log.write(&[log.note(&l, 2, None)]);
        assert!(matches!(log.run(None), Err(WitnessError::NoLogKey)));
        assert!(
            !log.path("w.key").exists(),
            "a run bound to fail creates no key"
        );
        log.run(Some(log.vkey())).unwrap();
        let other = SignerKey::load_or_create(&log.path("other.key")).unwrap();
        let other_vkey = VerifierKey::parse(&other.public_key()).unwrap();
        assert!(matches!(
            log.run(Some(other_vkey)),
            Err(WitnessError::LogKeyChanged { .. })
        ));
        let mut cp = Checkpoint::new("example/log", 4, [0; 32], 2);
        cp.link = None;
        log.write(&[log.note(&l, 2, None), format!("{}\n", other.sign(&cp))]);
        let e = log.run(None).unwrap_err();
        assert!(
            matches!(e, WitnessError::BadSignature { index: 2, .. }),
            "{e}"
        );
        let foreign = Checkpoint::new("example/other", 4, [0; 32], 2);
        log.write(&[
            log.note(&l, 2, None),
            format!("{}\n", log.key.sign(&foreign)),
        ]);
        let e = log.run(None).unwrap_err();
        assert!(matches!(e, WitnessError::OtherLog { index: 2, .. }), "{e}");
    }
}
