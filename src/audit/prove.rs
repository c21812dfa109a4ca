//! `audit prove <seq>`: a record, its Merkle inclusion proof and the signed checkpoint it is
//! proven against, so an auditor can check one record without the rest of the log.

use super::checkpoint::{self, Checkpoint};
use super::line;
use super::merkle::{self, hex};
use super::store::LogData;
use serde_json::{json, Value};

pub fn prove(data: &LogData, seq: u64) -> Result<Value, String> {
    let offset = data.pruned.as_ref().map_or(0, |p| p.through);
    if seq < offset {
        return Err(format!(
            "record {seq} was removed by retention (records before {offset} are pruned)"
        ));
    }
    let leaves = data.leaves()?;
    let line = data
        .files
        .iter()
        .flat_map(|(_, b)| b.split(|c| *c == b'\n'))
        .filter(|l| !l.is_empty())
        .nth((seq - offset) as usize)
        .ok_or_else(|| format!("no record {seq} (the log has {} records)", leaves.size()))?;
    let (_, canonical) = line::decode(line).map_err(|e| format!("record {seq}: {e}"))?;
    let record = serde_json::from_slice::<Value>(&canonical).map_err(|e| e.to_string())?;
    let (cp, note) = covering_checkpoint(data, seq)?;
    let tree = leaves.tree();
    let root = tree
        .root(cp.size)
        .ok_or("the checkpoint reaches into pruned records")?;
    if root != cp.root_hash {
        return Err(format!(
            "the log does not match checkpoint size {} (run audit verify)",
            cp.size
        ));
    }
    let leaf = leaves.hashes()[(seq - offset) as usize];
    let proof = tree
        .inclusion(seq, cp.size)
        .ok_or("cannot build the proof")?;
    debug_assert!(merkle::verify_inclusion(seq, cp.size, &leaf, &proof, &root));
    Ok(json!({
        "record": record,
        "leafIndex": seq,
        "leafHash": hex(&leaf),
        "treeSize": cp.size,
        "rootHash": hex(&root),
        "inclusionProof": proof.iter().map(hex).collect::<Vec<_>>(),
        "checkpoint": cp,
        "signedNote": note,
        "howToCheck": "leafHash = SHA-256(0x00 || canonical record); fold inclusionProof per RFC 9162 §2.1.3.2 to rootHash; rootHash is the base64 root of signedNote, whose Ed25519 signature checks against the pinned public key",
    }))
}

/// The first checkpoint whose tree includes `seq`.
fn covering_checkpoint(data: &LogData, seq: u64) -> Result<(Checkpoint, String), String> {
    let notes = checkpoint::parse_notes(&data.checkpoints)?;
    for note in &notes {
        let cp = checkpoint::open_unchecked(note)?;
        if cp.size > seq {
            return Ok((cp, note.text()));
        }
    }
    Err(format!("no checkpoint covers record {seq} yet (checkpoints are written every N records or T seconds, and at shutdown)"))
}
