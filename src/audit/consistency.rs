//! `audit consistency <old> <new>`: the RFC 9162 consistency proof between two signed
//! checkpoints of one log, built from the records and checked before it is shown, so an auditor
//! can keep it and check it again with nothing but the two notes.

use super::checkpoint::{self, Checkpoint, VerifierKey};
use super::merkle::{self, hex, Hash};
use super::store::LogData;
use serde_json::{json, Value};

/// One signed note, its signature checked when a key is pinned.
fn open_note(what: &str, text: &str, key: Option<&VerifierKey>) -> Result<Checkpoint, String> {
    let notes = checkpoint::parse_notes(text).map_err(|e| format!("{what}: {e}"))?;
    let [note] = &notes[..] else {
        return Err(format!(
            "{what}: a checkpoint is one signed note ({} found)",
            notes.len()
        ));
    };
    match key {
        Some(k) => checkpoint::open(note, k),
        None => checkpoint::open_unchecked(note),
    }
    .map_err(|e| format!("{what}: {e}"))
}

pub fn consistency(
    data: &LogData,
    old_note: &str,
    new_note: &str,
    key: Option<&VerifierKey>,
) -> Result<Value, String> {
    let old = open_note("old checkpoint", old_note, key)?;
    let new = open_note("new checkpoint", new_note, key)?;
    if old.origin != new.origin {
        return Err(format!(
            "the checkpoints are of two logs ({} and {})",
            old.origin, new.origin
        ));
    }
    if old.size > new.size {
        return Err(format!(
            "the old checkpoint (size {}) is larger than the new one (size {})",
            old.size, new.size
        ));
    }
    let leaves = data.leaves()?;
    let tree = leaves.tree();
    let root_at = |cp: &Checkpoint, what: &str| -> Result<Hash, String> {
        let root = tree.root(cp.size).ok_or_else(|| format!("the log cannot give its root at size {} (records pruned, or not yet written); audit verify --since follows the signed proofs instead", cp.size))?;
        match root == cp.root_hash {
            true => Ok(root),
            false => Err(format!("the log does not match the {what} checkpoint (size {}): it was rewritten, or the checkpoint is from another copy", cp.size)),
        }
    };
    let old_root = root_at(&old, "old")?;
    let new_root = root_at(&new, "new")?;
    let proof = tree
        .consistency(old.size, new.size)
        .ok_or("cannot build the proof from the records kept")?;
    if old.size > 0 && !merkle::verify_consistency(old.size, new.size, &old_root, &new_root, &proof)
    {
        return Err("the proof built from the log does not verify".into());
    }
    Ok(json!({
        "old": old,
        "new": new,
        "consistencyProof": proof.iter().map(hex).collect::<Vec<_>>(),
        "signaturesChecked": key.is_some(),
        "howToCheck": "RFC 9162 §2.1.4.2: fold consistencyProof from (old.size, old.rootHash) to (new.size, new.rootHash); both roots are the base64 roots of the signed notes, whose Ed25519 signatures check against the pinned public key",
    }))
}
