//! Hashes of the aligned perfect subtrees of a log, kept while its leaves are pushed, so a proof
//! over millions of leaves looks up its O(log n) subtrees instead of rehashing every leaf.
//!
//! Only subtrees of 2^MIN_LEVEL leaves or more are kept: that costs n/2^(MIN_LEVEL-1) hashes
//! (1/32 of the leaf hashes themselves at level 6), and a proof then hashes fewer than
//! 2^MIN_LEVEL leaves at each of its two edges (the leaf proven or the old size, and the new size).

use super::{Frontier, Hash, Tree};

/// 64-leaf blocks: a proof's edge work stays under 2·64 node hashes while the index is 1/32 the
/// size of the leaf hashes a prover holds anyway. Level 8 would cut that to 1/128 but quadruple
/// the edge work (examples/merkle_bench, 2·10^6 leaves: inclusion 13 µs at 6, 55 µs at 8); both
/// are far under the 1 ms goal, and 2 MB per 2·10^6 leaves is little beside their 64 MB.
pub(super) const MIN_LEVEL: u32 = 6;

/// `levels[i][j]` is the hash of leaves [j·2^L, (j+1)·2^L) with L = min_level + i, for every such
/// block that was completed by a push (so `j` starts at `start >> L`, the block holding `start`).
#[derive(Debug, Clone)]
struct Index {
    min_level: u32,
    start: u64,
    levels: Vec<Vec<Hash>>,
}

impl Index {
    fn get(&self, a: u64, b: u64) -> Option<Hash> {
        let size = b.checked_sub(a)?;
        if !size.is_power_of_two() || !a.is_multiple_of(size) {
            return None;
        }
        let level = size.trailing_zeros();
        let row = self
            .levels
            .get(level.checked_sub(self.min_level)? as usize)?;
        let j = (a >> level).checked_sub(self.start >> level)?;
        row.get(usize::try_from(j).ok()?).copied()
    }

    fn record(&mut self, level: u32, j: u64, hash: &Hash) {
        let Some(i) = level.checked_sub(self.min_level) else {
            return;
        };
        let i = i as usize;
        if self.levels.len() <= i {
            self.levels.resize_with(i + 1, Vec::new);
        }
        // Blocks of one level complete left to right, one per push that reaches that level.
        debug_assert_eq!(j - (self.start >> level), self.levels[i].len() as u64);
        self.levels[i].push(*hash);
    }

    fn len(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }
}

/// The leaves of a log from `offset` on, the frontier vouching for the pruned ones before it, and
/// the subtree index; owning all three keeps the index from describing other leaves than the tree.
#[derive(Debug, Clone)]
pub struct Leaves {
    hashes: Vec<Hash>,
    pruned: Vec<(u64, u64, Hash)>,
    frontier: Frontier,
    index: Index,
}

impl Default for Leaves {
    fn default() -> Self {
        Self::new()
    }
}

impl Leaves {
    /// A log from its first leaf.
    pub fn new() -> Self {
        Self::build(Frontier::default(), MIN_LEVEL)
    }

    /// A log whose first `pruned.size` leaves are gone (retention, or a checkpoint the writer
    /// proves from); `None` if the frontier does not have one root per 1-bit of its size, since
    /// extending it would then yield wrong subtree hashes rather than missing ones.
    pub fn after(pruned: &Frontier) -> Option<Self> {
        Self::with_level(pruned.clone(), MIN_LEVEL)
    }

    /// As `after`, with another smallest indexed level (tests use small ones on small trees).
    pub(super) fn with_level(frontier: Frontier, min_level: u32) -> Option<Self> {
        (frontier.nodes.len() == frontier.size.count_ones() as usize)
            .then(|| Self::build(frontier, min_level))
    }

    fn build(frontier: Frontier, min_level: u32) -> Self {
        Self {
            hashes: Vec::new(),
            pruned: frontier.ranges(),
            index: Index {
                min_level,
                start: frontier.size,
                levels: Vec::new(),
            },
            frontier,
        }
    }

    pub fn push(&mut self, leaf: Hash) {
        let index = &mut self.index;
        self.frontier
            .push_observed(leaf, |level, j, h| index.record(level, j, h));
        self.hashes.push(leaf);
    }

    /// Index of the first leaf held (the number of pruned leaves).
    pub fn offset(&self) -> u64 {
        self.index.start
    }

    /// Leaves in the log, pruned ones included.
    pub fn size(&self) -> u64 {
        self.frontier.size
    }

    /// The leaves held, from `offset()` on.
    pub fn hashes(&self) -> &[Hash] {
        &self.hashes
    }

    /// The frontier of the whole log (pushes already compute it, so a scan needs no second one).
    pub fn frontier(&self) -> &Frontier {
        &self.frontier
    }

    /// How many subtree hashes the index holds (its memory is 32 bytes each).
    pub fn index_len(&self) -> usize {
        self.index.len()
    }

    /// The tree of these leaves, with O(log n) proofs.
    pub fn tree(&self) -> Tree<'_> {
        Tree {
            offset: self.index.start,
            leaves: &self.hashes,
            pruned: &self.pruned,
            index: Some(Lookup(&self.index)),
        }
    }
}

/// A borrowed index, opaque outside this module so a `Tree` only gets one from its own `Leaves`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lookup<'a>(&'a Index);

impl Lookup<'_> {
    pub(super) fn get(&self, a: u64, b: u64) -> Option<Hash> {
        self.0.get(a, b)
    }
}
