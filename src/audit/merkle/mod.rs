//! RFC 6962 / RFC 9162 Merkle trees over audit records. A record's `hash` is its leaf hash, so the
//! chain link and the Merkle leaf are the same digest. The writer keeps only the frontier (the
//! roots of the perfect subtrees covering the log, O(log n)); proofs are computed from the leaves,
//! through an index of large subtrees (`Leaves`) so a proof over millions of them stays O(log n).

use sha2::{Digest, Sha256};

mod index;
pub use index::Leaves;
use index::Lookup;

pub type Hash = [u8; 32];

pub fn leaf(canonical: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update([0u8]);
    h.update(canonical);
    h.finalize().into()
}

pub fn node(left: &Hash, right: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update([1u8]);
    h.update(left);
    h.update(right);
    h.finalize().into()
}

pub fn empty_root() -> Hash {
    Sha256::digest([]).into()
}

/// Largest power of two strictly below `n` (n ≥ 2).
fn split(n: u64) -> u64 {
    let mut k = 1;
    while k * 2 < n {
        k *= 2;
    }
    k
}

/// The compact state of an append-only tree: roots of perfect subtrees, largest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frontier {
    pub size: u64,
    pub nodes: Vec<Hash>,
}

impl Frontier {
    pub fn push(&mut self, leaf: Hash) {
        self.push_observed(leaf, |_, _, _| {});
    }

    /// `push`, telling `merged(level, j, hash)` of each subtree of 2^level leaves it completes
    /// (the j-th of that size): the index keeps these instead of hashing the leaves a second time.
    fn push_observed(&mut self, leaf: Hash, mut merged: impl FnMut(u32, u64, &Hash)) {
        let mut carry = leaf;
        let mut size = self.size;
        let mut level = 0;
        // Each trailing 1-bit of the old size is a perfect subtree that merges with the new one.
        while size & 1 == 1 {
            let left = self.nodes.pop().unwrap_or_default();
            carry = node(&left, &carry);
            size >>= 1;
            level += 1;
            merged(level, size, &carry);
        }
        self.nodes.push(carry);
        self.size += 1;
    }

    /// MTH of everything pushed so far.
    pub fn root(&self) -> Hash {
        let mut iter = self.nodes.iter().rev();
        let Some(last) = iter.next() else {
            return empty_root();
        };
        iter.fold(*last, |acc, left| node(left, &acc))
    }

    /// The perfect subtrees as `(start, size, hash)`, left to right.
    pub fn ranges(&self) -> Vec<(u64, u64, Hash)> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut bits: Vec<u64> = (0..64)
            .rev()
            .filter(|b| self.size >> b & 1 == 1)
            .map(|b| 1u64 << b)
            .collect();
        for (sz, h) in bits.drain(..).zip(self.nodes.iter()) {
            out.push((start, sz, *h));
            start += sz;
        }
        out
    }
}

/// Hashes of ranges: leaves where present, frontier subtrees where leaves were pruned away, and
/// indexed subtrees when built by `Leaves::tree` (then proofs are O(log n), else O(n)).
pub struct Tree<'a> {
    /// Index of `leaves[0]` in the log.
    pub offset: u64,
    pub leaves: &'a [Hash],
    pub pruned: &'a [(u64, u64, Hash)],
    index: Option<Lookup<'a>>,
}

impl<'a> Tree<'a> {
    /// A tree without index: every hash is computed from the leaves. `Leaves::tree` is the fast one.
    pub fn new(offset: u64, leaves: &'a [Hash], pruned: &'a [(u64, u64, Hash)]) -> Self {
        Tree {
            offset,
            leaves,
            pruned,
            index: None,
        }
    }

    pub fn size(&self) -> u64 {
        self.offset + self.leaves.len() as u64
    }

    /// MTH of leaves [a, b); `None` if it needs leaves that were pruned and no pruned subtree covers it.
    pub fn hash(&self, a: u64, b: u64) -> Option<Hash> {
        if let Some((_, _, h)) = self.pruned.iter().find(|(s, n, _)| *s == a && s + n == b) {
            return Some(*h);
        }
        if let Some(h) = self.index.and_then(|i| i.get(a, b)) {
            return Some(h);
        }
        match b - a {
            0 => Some(empty_root()),
            1 => (a >= self.offset)
                .then(|| self.leaves.get((a - self.offset) as usize).copied())
                .flatten(),
            n => {
                let k = split(n);
                Some(node(&self.hash(a, a + k)?, &self.hash(a + k, b)?))
            }
        }
    }

    pub fn root(&self, size: u64) -> Option<Hash> {
        self.hash(0, size)
    }

    /// RFC 9162 §2.1.3.1 PATH(m, D[n]) for the tree of the first `n` leaves.
    pub fn inclusion(&self, m: u64, n: u64) -> Option<Vec<Hash>> {
        self.path(m, 0, n)
    }

    fn path(&self, m: u64, a: u64, b: u64) -> Option<Vec<Hash>> {
        if b - a <= 1 {
            return Some(Vec::new());
        }
        let k = split(b - a);
        if m < k {
            let mut p = self.path(m, a, a + k)?;
            p.push(self.hash(a + k, b)?);
            Some(p)
        } else {
            let mut p = self.path(m - k, a + k, b)?;
            p.push(self.hash(a, a + k)?);
            Some(p)
        }
    }

    /// RFC 9162 §2.1.4.1 PROOF(m, D[n]).
    pub fn consistency(&self, m: u64, n: u64) -> Option<Vec<Hash>> {
        if m == 0 || m > n {
            return Some(Vec::new());
        }
        self.subproof(m, 0, n, true)
    }

    fn subproof(&self, m: u64, a: u64, b: u64, complete: bool) -> Option<Vec<Hash>> {
        let n = b - a;
        if m == n {
            return Some(if complete {
                Vec::new()
            } else {
                vec![self.hash(a, b)?]
            });
        }
        let k = split(n);
        if m <= k {
            let mut p = self.subproof(m, a, a + k, complete)?;
            p.push(self.hash(a + k, b)?);
            Some(p)
        } else {
            let mut p = self.subproof(m - k, a + k, b, false)?;
            p.push(self.hash(a, a + k)?);
            Some(p)
        }
    }
}

/// RFC 9162 §2.1.3.2: does `proof` show leaf `index` (hash `leaf`) in a tree of `size` with `root`?
pub fn verify_inclusion(index: u64, size: u64, leaf: &Hash, proof: &[Hash], root: &Hash) -> bool {
    if index >= size {
        return false;
    }
    let (mut fnode, mut snode) = (index, size - 1);
    let mut r = *leaf;
    for p in proof {
        if snode == 0 {
            return false;
        }
        if fnode & 1 == 1 || fnode == snode {
            r = node(p, &r);
            if fnode & 1 == 0 {
                while fnode & 1 == 0 && fnode != 0 {
                    fnode >>= 1;
                    snode >>= 1;
                }
            }
        } else {
            r = node(&r, p);
        }
        fnode >>= 1;
        snode >>= 1;
    }
    snode == 0 && r == *root
}

/// RFC 9162 §2.1.4.2: is the tree of size `m` with `old_root` a prefix of the one of size `n`?
pub fn verify_consistency(
    m: u64,
    n: u64,
    old_root: &Hash,
    new_root: &Hash,
    proof: &[Hash],
) -> bool {
    if m == n {
        return proof.is_empty() && old_root == new_root;
    }
    if m == 0 || m > n || proof.is_empty() {
        return false;
    }
    let mut proof: Vec<Hash> = proof.to_vec();
    if m.is_power_of_two() {
        proof.insert(0, *old_root);
    }
    let (mut fnode, mut snode) = (m - 1, n - 1);
    while fnode & 1 == 1 {
        fnode >>= 1;
        snode >>= 1;
    }
    let (mut fr, mut sr) = (proof[0], proof[0]);
    for c in &proof[1..] {
        if snode == 0 {
            return false;
        }
        if fnode & 1 == 1 || fnode == snode {
            fr = node(c, &fr);
            sr = node(c, &sr);
            if fnode & 1 == 0 {
                while fnode & 1 == 0 && fnode != 0 {
                    fnode >>= 1;
                    snode >>= 1;
                }
            }
        } else {
            sr = node(&sr, c);
        }
        fnode >>= 1;
        snode >>= 1;
    }
    snode == 0 && fr == *old_root && sr == *new_root
}

pub fn hex(h: &Hash) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(64);
    for b in h {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// Lowercase hex only: the stored form is canonical, so `AB…` is not the same text as `ab…`.
pub fn from_hex(s: &str) -> Option<Hash> {
    if s.len() != 64
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, chunk) in s.as_bytes().chunks(2).enumerate() {
        out[i] = u8::from_str_radix(std::str::from_utf8(chunk).ok()?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests;
