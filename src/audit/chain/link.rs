//! What the writer keeps so each checkpoint can carry a consistency proof from the last one it
//! signed: the frontier at that checkpoint and the leaves appended since. RFC 9162 proofs from
//! size m only need the perfect subtrees of the first m leaves (exactly that frontier) and
//! subtrees of the leaves after m.

use crate::audit::checkpoint::Link;
use crate::audit::merkle::{Frontier, Hash, Tree};
use crate::audit::store::FrontierState;

/// Leaves kept at most between two checkpoints (32 MiB); past that the next checkpoint goes
/// without a proof rather than memory growing while checkpoints keep failing.
const MAX_SINCE: usize = 1 << 20;

#[derive(Default)]
pub(super) struct LinkBase {
    base: Option<Frontier>,
    since: Vec<Hash>,
}

impl LinkBase {
    /// From the saved base and the leaves the log holds after it (`None`: start unlinked).
    pub(super) fn restore(saved: Option<&FrontierState>, since: Option<Vec<Hash>>) -> LinkBase {
        match (saved.and_then(FrontierState::frontier), since) {
            (Some(base), Some(since)) => LinkBase {
                base: Some(base),
                since,
            },
            _ => LinkBase::default(),
        }
    }

    pub(super) fn push(&mut self, leaf: Hash) {
        if self.base.is_none() {
            return;
        }
        if self.since.len() >= MAX_SINCE {
            return self.forget();
        }
        self.since.push(leaf);
    }

    /// The chain was re-read from disk: what we held no longer describes it.
    pub(super) fn forget(&mut self) {
        self.base = None;
        self.since = Vec::new();
    }

    /// A checkpoint at `frontier` was signed: the next proof starts there.
    pub(super) fn rebase(&mut self, frontier: &Frontier) {
        self.base = Some(frontier.clone());
        self.since.clear();
    }

    /// The proof that the tree at `size` extends the base; `None` when the base is unknown.
    pub(super) fn link(&self, size: u64) -> Option<Link> {
        let base = self.base.as_ref()?;
        if base.size + self.since.len() as u64 != size {
            return None;
        }
        let ranges = base.ranges();
        let tree = Tree {
            offset: base.size,
            leaves: &self.since,
            pruned: &ranges,
        };
        let proof = tree.consistency(base.size, size)?;
        Some(Link {
            from: base.size,
            proof,
        })
    }

    pub(super) fn saved(&self) -> Option<FrontierState> {
        self.base.as_ref().map(FrontierState::of)
    }
}
