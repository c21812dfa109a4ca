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
        let t = Tree { offset: 0, leaves: &d, pruned: &[] };
        prop_assert_eq!(t.root(n), Some(naive_mth(&d)));
    }

    #[test]
    fn inclusion_proofs_verify_and_reject_tampering(n in 1u64..200, seed in any::<u64>()) {
        let d = leaves(n);
        let t = Tree { offset: 0, leaves: &d, pruned: &[] };
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
        let t = Tree { offset: 0, leaves: &d, pruned: &[] };
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
        let t = Tree { offset: p, leaves: &d[p as usize..], pruned: &pruned };
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
    fn consistency_equals_the_rfc_for_every_m(n in 1usize..400, salt in any::<u64>()) {
        let d = salted_leaves(n as u64, salt);
        let full = Tree { offset: 0, leaves: &d, pruned: &[] };
        for m in 1..=n {
            let reference = naive_proof(m, &d);
            prop_assert_eq!(full.consistency(m as u64, n as u64), Some(reference.clone()), "m={}", m);
            let pruned = frontier_of(&d[..m]).ranges();
            let since = Tree { offset: m as u64, leaves: &d[m..], pruned: &pruned };
            prop_assert_eq!(since.consistency(m as u64, n as u64), Some(reference), "m={} pruned", m);
        }
    }

    /// Every leaf of one tree, from all the leaves and with a pruned prefix of `p` leaves.
    #[test]
    fn inclusion_equals_the_rfc_for_every_leaf(n in 1usize..400, salt in any::<u64>(), p in any::<usize>()) {
        let d = salted_leaves(n as u64, salt);
        let p = p % n;
        let pruned = frontier_of(&d[..p]).ranges();
        let full = Tree { offset: 0, leaves: &d, pruned: &[] };
        let since = Tree { offset: p as u64, leaves: &d[p..], pruned: &pruned };
        for m in 0..n {
            let reference = naive_path(m, &d);
            prop_assert_eq!(full.inclusion(m as u64, n as u64), Some(reference.clone()), "m={}", m);
            if m >= p {
                prop_assert_eq!(since.inclusion(m as u64, n as u64), Some(reference), "m={} p={}", m, p);
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

#[test]
fn hex_round_trips() {
    let h = leaf(b"x");
    assert_eq!(from_hex(&hex(&h)), Some(h));
    assert_eq!(from_hex("zz"), None);
}
