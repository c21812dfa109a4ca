//! Independent witnesses for the audit trail. A signed checkpoint proves who signed it, not that
//! the history behind it is the one signed before: whoever holds the log key can rewrite the log
//! and sign it again. A witness (run by someone else, on another machine if need be) follows the
//! log's checkpoints, cosigns only those proven to extend what it saw, and refuses a rewritten
//! history; an auditor then requires its cosignatures (`audit verify --witness-pubkey`).
//! Cosignatures are C2SP tlog-cosignature v1 (Ed25519), appended to `<audit dir>/cosignatures`
//! as the checkpoint note with the witness's line added.

mod cosign;
mod run;

pub use cosign::{signed_message, CosignerKey, WitnessKey, ALG_COSIGNATURE};
pub use run::{state_path, witness, Report};

use super::checkpoint::{self, SignedNote, VerifierKey};
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum WitnessError {
    #[error("witness key: {0}")]
    Key(String),
    #[error("witness state: {0}")]
    State(String),
    #[error("checkpoints: {0}")]
    Checkpoints(String),
    #[error("writing cosignatures: {0}")]
    Write(String),
    #[error("the first run needs the log's public key (--pubkey, as `audit pubkey` prints it): the witness pins it")]
    NoLogKey,
    #[error("refused: this witness follows the log key {pinned}, not {given}")]
    LogKeyChanged { pinned: String, given: String },
    #[error("refused: checkpoint {index}: {reason}")]
    BadSignature { index: usize, reason: String },
    #[error("refused: checkpoint {index} is of log {origin}; this witness follows {pinned}")]
    OtherLog {
        index: usize,
        origin: String,
        pinned: String,
    },
    #[error("refused: checkpoint {index} (size {size}) has another root than the tree of that size this witness {}: the log was rewritten or forked; nothing cosigned", if *before_this_run { "cosigned before" } else { "accepted earlier in the file" })]
    Fork {
        index: usize,
        size: u64,
        before_this_run: bool,
    },
    #[error("refused: checkpoint {index} (size {size}), the newest, is not shown to extend the tree this witness vouches for (size {cosigned}): {why}; the log's history was rewritten (or forked), nothing cosigned")]
    Unlinked {
        index: usize,
        size: u64,
        cosigned: u64,
        why: String,
    },
    #[error("refused: the checkpoints file holds no checkpoint, but this witness cosigned the log at size {cosigned}: checkpoints were removed")]
    Emptied { cosigned: u64 },
}

impl WitnessError {
    /// The log was shown and found wanting (as opposed to the witness failing to run).
    pub fn is_refusal(&self) -> bool {
        !matches!(
            self,
            WitnessError::Key(_)
                | WitnessError::State(_)
                | WitnessError::Checkpoints(_)
                | WitnessError::Write(_)
                | WitnessError::NoLogKey
        )
    }
}

/// The newest checkpoint a witness cosigned, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cosigned {
    pub size: u64,
    /// The cosignature's time, seconds since the epoch.
    pub time: u64,
}

/// The largest checkpoint among `notes` that `w` cosigned and `of_log` accepts as this log's.
pub fn newest_cosigned(
    notes: &[SignedNote],
    w: &WitnessKey,
    of_log: impl Fn(&SignedNote) -> bool,
) -> Option<Cosigned> {
    notes
        .iter()
        .filter_map(|n| {
            let time = w.cosigned(n)?;
            let size = checkpoint::open_unchecked(n).ok()?.size;
            Some((size, time, n))
        })
        .filter(|(_, _, n)| of_log(n))
        .map(|(size, time, _)| Cosigned { size, time })
        .max_by_key(|c| (c.size, c.time))
}

/// What each witness has cosigned in the `cosignatures` text among checkpoints the log key
/// signed (for status: the log's own key and file, so no checkpoints file need be read).
pub fn cosigned_by_each(
    cosignatures: &str,
    log_key: &VerifierKey,
    witnesses: &[WitnessKey],
) -> Vec<Option<Cosigned>> {
    let notes = read_cosignatures(cosignatures).unwrap_or_default();
    witnesses
        .iter()
        .map(|w| newest_cosigned(&notes, w, |n| checkpoint::open(n, log_key).is_ok()))
        .collect()
}

/// The notes of a `cosignatures` file, a half-appended last one left out.
pub fn read_cosignatures(text: &str) -> Result<Vec<SignedNote>, String> {
    checkpoint::parse_notes(run::complete_notes(text))
}
