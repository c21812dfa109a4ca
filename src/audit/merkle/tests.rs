use super::*;
use proptest::prelude::*;

fn leaves(n: u64) -> Vec<Hash> {
    salted_leaves(n, 0)
}

/// Leaves whose content depends on `salt`, so each proptest case hashes a different log.
fn salted_leaves(n: u64, salt: u64) -> Vec<Hash> {
    (0..n)
        .map(|i| leaf(&[i.to_le_bytes(), salt.to_le_bytes()].concat()))
        .collect()
}

// The reference: RFC 9162 §2.1.1, §2.1.3.1 and §2.1.4.1 transcribed over slices, with none of the
// code under test (not even its `split`), so a shared mistake cannot make both agree.

/// "the largest power of two smaller than n" (n ≥ 2).
fn naive_k(n: usize) -> usize {
    let mut k = 1;
    while k * 2 < n {
        k *= 2;
    }
    k
}

/// MTH(D[n]).
fn naive_mth(d: &[Hash]) -> Hash {
    match d.len() {
        0 => empty_root(),
        1 => d[0],
        n => {
            let k = naive_k(n);
            node(&naive_mth(&d[..k]), &naive_mth(&d[k..]))
        }
    }
}

/// PATH(m, D[n]).
fn naive_path(m: usize, d: &[Hash]) -> Vec<Hash> {
    let n = d.len();
    if n <= 1 {
        return Vec::new();
    }
    let k = naive_k(n);
    if m < k {
        let mut p = naive_path(m, &d[..k]);
        p.push(naive_mth(&d[k..]));
        p
    } else {
        let mut p = naive_path(m - k, &d[k..]);
        p.push(naive_mth(&d[..k]));
        p
    }
}

/// PROOF(m, D[n]) = SUBPROOF(m, D[n], true).
fn naive_proof(m: usize, d: &[Hash]) -> Vec<Hash> {
    naive_subproof(m, d, true)
}

fn naive_subproof(m: usize, d: &[Hash], b: bool) -> Vec<Hash> {
    let n = d.len();
    if m == n {
        return if b { Vec::new() } else { vec![naive_mth(d)] };
    }
    let k = naive_k(n);
    if m <= k {
        let mut p = naive_subproof(m, &d[..k], b);
        p.push(naive_mth(&d[k..]));
        p
    } else {
        let mut p = naive_subproof(m - k, &d[k..], false);
        p.push(naive_mth(&d[..k]));
        p
    }
}

/// `Leaves` holding all of `d` after its first `p` were pruned, indexing subtrees from 2^level.
fn indexed_after(d: &[Hash], p: usize, level: u32) -> Leaves {
    let Some(mut kept) = Leaves::with_level(frontier_of(&d[..p]), level) else {
        panic!("a frontier built by pushes is well formed");
    };
    for l in &d[p..] {
        kept.push(*l);
    }
    kept
}

fn indexed(d: &[Hash], p: usize, level: u32) -> Leaves {
    indexed_after(d, p, level)
}

fn frontier_of(d: &[Hash]) -> Frontier {
    let mut f = Frontier::default();
    for l in d {
        f.push(*l);
    }
    f
}

proptest! {
    #[test]
    fn frontier_root_equals_the_definition(n in 0u64..300, probe in any::<u64>()) {
        let d = leaves(n);
        let mut f = Frontier::default();
        let check = if n == 0 { 0 } else { probe % n };
        for (i, l) in d.iter().enumerate() {
            f.push(*l);
            if i as u64 == check {
                prop_assert_eq!(f.root(), naive_mth(&d[..=i]));
            }
        }
        prop_assert_eq!(f.root(), naive_mth(&d));
        let t = Tree::new(0, &d, &[]);
        prop_assert_eq!(t.root(n), Some(naive_mth(&d)));
    }

    #[test]
    fn inclusion_proofs_verify_and_reject_tampering(n in 1u64..200, seed in any::<u64>()) {
        let d = leaves(n);
        let t = Tree::new(0, &d, &[]);
        let m = seed % n;
        let root = naive_mth(&d);
        let proof = t.inclusion(m, n).unwrap();
        prop_assert!(verify_inclusion(m, n, &d[m as usize], &proof, &root));
        if n > 1 {
            prop_assert!(!verify_inclusion((m + 1) % n, n, &d[m as usize], &proof, &root), "wrong index");
        }
        if let Some(first) = proof.first() {
            let mut bad = proof.clone();
            bad[0] = node(first, first);
            prop_assert!(!verify_inclusion(m, n, &d[m as usize], &bad, &root));
        }
    }

    #[test]
    fn consistency_proofs_verify_and_reject_other_histories(n in 1u64..200, seed in any::<u64>()) {
        let d = leaves(n);
        let t = Tree::new(0, &d, &[]);
        let m = 1 + seed % n;
        let (old, new) = (naive_mth(&d[..m as usize]), naive_mth(&d));
        let proof = t.consistency(m, n).unwrap();
        prop_assert!(verify_consistency(m, n, &old, &new, &proof));
        if m < n {
            let forged = leaf(b"forged");
            prop_assert!(!verify_consistency(m, n, &forged, &new, &proof));
        }
    }

    #[test]
    fn pruned_prefixes_still_give_roots_and_proofs(n in 2u64..150, seed in any::<u64>()) {
        let d = leaves(n);
        let p = 1 + seed % (n - 1);
        let mut f = Frontier::default();
        for l in &d[..p as usize] { f.push(*l); }
        let pruned = f.ranges();
        let t = Tree::new(p, &d[p as usize..], &pruned);
        prop_assert_eq!(t.root(n), Some(naive_mth(&d)));
        let m = p + seed % (n - p);
        let proof = t.inclusion(m, n).unwrap();
        prop_assert!(verify_inclusion(m, n, &d[m as usize], &proof, &naive_mth(&d)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every m of one tree, proven from all the leaves and from what the writer keeps after a
    /// checkpoint at m (the frontier at m and the leaves since).
    #[test]
    fn consistency_equals_the_rfc_for_every_m(n in 1usize..400, salt in any::<u64>(), level in 1u32..=7) {
        let d = salted_leaves(n as u64, salt);
        let full = Tree::new(0, &d, &[]);
        let indexed = indexed(&d, 0, level);
        for m in 1..=n {
            let reference = naive_proof(m, &d);
            let (m64, n64) = (m as u64, n as u64);
            prop_assert_eq!(full.consistency(m64, n64), Some(reference.clone()), "m={}", m);
            prop_assert_eq!(indexed.tree().consistency(m64, n64), Some(reference.clone()), "m={} indexed", m);
            let pruned = frontier_of(&d[..m]).ranges();
            let since = Tree::new(m64, &d[m..], &pruned);
            prop_assert_eq!(since.consistency(m64, n64), Some(reference.clone()), "m={} pruned", m);
            let kept = indexed_after(&d, m, level);
            prop_assert_eq!(kept.tree().consistency(m64, n64), Some(reference), "m={} pruned, indexed", m);
        }
    }

    /// Every leaf of one tree, from all the leaves and with a pruned prefix of `p` leaves.
    #[test]
    fn inclusion_equals_the_rfc_for_every_leaf(n in 1usize..400, salt in any::<u64>(), p in any::<usize>(), level in 1u32..=7) {
        let d = salted_leaves(n as u64, salt);
        let p = p % n;
        let pruned = frontier_of(&d[..p]).ranges();
        let full = Tree::new(0, &d, &[]);
        let since = Tree::new(p as u64, &d[p..], &pruned);
        let kept = indexed_after(&d, p, level);
        for m in 0..n {
            let reference = naive_path(m, &d);
            prop_assert_eq!(full.inclusion(m as u64, n as u64), Some(reference.clone()), "m={}", m);
            if m >= p {
                prop_assert_eq!(since.inclusion(m as u64, n as u64), Some(reference.clone()), "m={} p={}", m, p);
                prop_assert_eq!(kept.tree().inclusion(m as u64, n as u64), Some(reference), "m={} p={} indexed", m, p);
            }
        }
    }

    /// A proof only vouches for the exact (m, n, old root, new root) it was made for.
    #[test]
    fn verify_consistency_rejects_altered_claims(n in 2usize..300, salt in any::<u64>(), pick in any::<usize>()) {
        let d = salted_leaves(n as u64, salt);
        let m = 1 + pick % (n - 1); // m < n: a proof with content
        let (old, new) = (naive_mth(&d[..m]), naive_mth(&d));
        let proof = naive_proof(m, &d);
        let (m64, n64) = (m as u64, n as u64);
        prop_assert!(verify_consistency(m64, n64, &old, &new, &proof));
        prop_assert!(!verify_consistency(m64, n64, &new, &old, &proof), "swapped roots");
        for other in (1..=n).filter(|o| *o != m) {
            let other_old = naive_mth(&d[..other]);
            prop_assert!(!verify_consistency(other as u64, n64, &other_old, &new, &proof), "proof for m={} taken for m={}", m, other);
        }
        prop_assert!(!verify_consistency(m64, n64, &old, &new, &proof[..proof.len() - 1]), "truncated");
        for extra in [proof[0], old, new] {
            let mut longer = proof.clone();
            longer.push(extra);
            prop_assert!(!verify_consistency(m64, n64, &old, &new, &longer), "extra hash at the end");
            let mut longer = proof.clone();
            longer.insert(0, extra);
            prop_assert!(!verify_consistency(m64, n64, &old, &new, &longer), "extra hash in front");
        }
    }
}

proptest! {
    /// The index only replaces computation: every root, and proofs between any sizes, come out
    /// as without it, including the `None` of a proof that needs pruned leaves.
    #[test]
    fn the_index_changes_no_hash(n in 1usize..700, salt in any::<u64>(), p in any::<usize>(), level in 1u32..=8, picks in proptest::collection::vec((any::<u64>(), any::<u64>()), 40)) {
        let d = salted_leaves(n as u64, salt);
        let p = p % n;
        let pruned = frontier_of(&d[..p]).ranges();
        let plain = Tree::new(p as u64, &d[p..], &pruned);
        let kept = indexed_after(&d, p, level);
        let fast = kept.tree();
        prop_assert_eq!(kept.size(), n as u64);
        prop_assert_eq!(kept.offset(), p as u64);
        prop_assert_eq!(kept.frontier(), &frontier_of(&d));
        prop_assert_eq!(kept.hashes(), &d[p..]);
        for size in 0..=n as u64 {
            prop_assert_eq!(fast.root(size), plain.root(size), "root({})", size);
        }
        for (x, y) in picks {
            let size = 1 + y % n as u64;
            let (m, i) = (1 + x % size, x % size);
            prop_assert_eq!(fast.consistency(m, size), plain.consistency(m, size), "consistency({}, {})", m, size);
            prop_assert_eq!(fast.inclusion(i, size), plain.inclusion(i, size), "inclusion({}, {})", i, size);
        }
    }

    /// The index stays within n/2^(level-1) hashes: small enough to keep beside the leaves.
    #[test]
    fn the_index_is_small(n in 0usize..3000, level in 1u32..=8) {
        let kept = indexed(&leaves(n as u64), 0, level);
        prop_assert!(kept.index_len() <= n >> (level - 1), "{} hashes for {} leaves", kept.index_len(), n);
        if n >> level > 0 {
            prop_assert!(kept.index_len() >= n >> level, "the index must hold every block of 2^level");
        }
    }
}

/// Guards against an index that is built but never consulted (the equality above would still
/// hold): with the leaves swapped out, indexed blocks must still give the original hashes.
#[test]
fn indexed_blocks_are_looked_up_not_rehashed() {
    let d = leaves(1000);
    let kept = indexed(&d, 0, 3);
    let other = salted_leaves(1000, 1);
    let Tree { index, .. } = kept.tree();
    let blind = Tree {
        offset: 0,
        leaves: &other,
        pruned: &[],
        index,
    };
    assert_eq!(blind.root(512), Some(naive_mth(&d[..512])));
    assert_eq!(blind.hash(512, 520), Some(naive_mth(&d[512..520])));
    // 1000 = 512 + 256 + 128 + 64 + 32 + 8: all indexed; 999 ends in 4 + 2 + 1 leaves, read.
    assert_eq!(blind.root(1000), Some(naive_mth(&d)));
    assert_eq!(blind.hash(512, 516), Some(naive_mth(&other[512..516])));
    assert_ne!(blind.root(999), Some(naive_mth(&d[..999])));
}

#[test]
fn a_frontier_without_one_root_per_bit_is_refused() {
    let mut f = frontier_of(&leaves(5));
    assert!(Leaves::after(&f).is_some());
    f.nodes.pop();
    assert!(
        Leaves::after(&f).is_none(),
        "extending it would index wrong hashes"
    );
    f.nodes.push(leaf(b"x"));
    f.nodes.push(leaf(b"y"));
    assert!(Leaves::after(&f).is_none());
}

#[test]
fn hex_round_trips() {
    let h = leaf(b"x");
    assert_eq!(from_hex(&hex(&h)), Some(h));
    assert_eq!(from_hex("zz"), None);
}
