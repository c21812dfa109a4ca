//! What the writer keeps so each checkpoint can carry a consistency proof from the last one it
//! signed: the frontier at that checkpoint and the leaves appended since. RFC 9162 proofs from
//! size m only need the perfect subtrees of the first m leaves (exactly that frontier) and
//! subtrees of the leaves after m.

use crate::audit::checkpoint::Link;
use crate::audit::merkle::{Frontier, Hash, Leaves};
use crate::audit::store::FrontierState;

/// Leaves kept at most between two checkpoints (32 MiB); past that the next checkpoint goes
/// without a proof rather than memory growing while checkpoints keep failing.
const MAX_SINCE: u64 = 1 << 20;

#[derive(Default)]
pub(super) struct LinkBase {
    /// The frontier the proofs start from (saved in chain-state.json) and the leaves after it.
    base: Option<(Frontier, Leaves)>,
}

impl LinkBase {
    /// From the saved base and the leaves the log holds after it (`None`: start unlinked).
    pub(super) fn restore(saved: Option<&FrontierState>, since: Option<Vec<Hash>>) -> LinkBase {
        let mut link = LinkBase::default();
        if let (Some(base), Some(since)) = (saved.and_then(FrontierState::frontier), since) {
            link.rebase(&base);
            since.into_iter().for_each(|h| link.push(h));
        }
        link
    }

    pub(super) fn push(&mut self, leaf: Hash) {
        let Some((base, leaves)) = self.base.as_mut() else {
            return;
        };
        if leaves.size() - base.size >= MAX_SINCE {
            return self.forget();
        }
        leaves.push(leaf);
    }

    /// The chain was re-read from disk: what we held no longer describes it.
    pub(super) fn forget(&mut self) {
        self.base = None;
    }

    /// A checkpoint at `frontier` was signed: the next proof starts there.
    pub(super) fn rebase(&mut self, frontier: &Frontier) {
        self.base = Leaves::after(frontier).map(|l| (frontier.clone(), l));
    }

    /// The proof that the tree at `size` extends the base; `None` when the base is unknown.
    pub(super) fn link(&self, size: u64) -> Option<Link> {
        let (base, leaves) = self.base.as_ref()?;
        if leaves.size() != size {
            return None;
        }
        let proof = leaves.tree().consistency(base.size, size)?;
        Some(Link {
            from: base.size,
            proof,
        })
    }

    pub(super) fn saved(&self) -> Option<FrontierState> {
        self.base.as_ref().map(|(f, _)| FrontierState::of(f))
    }
}
