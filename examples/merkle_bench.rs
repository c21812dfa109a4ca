//! Merkle proofs over a large audit log: `cargo run --release --example merkle_bench [leaves]`.
//! Issue 15's goal: a consistency proof between trees of 10^6 and 2·10^6 leaves in ≤ 1 ms.
//! Prints figures (median of many runs); asserts only that the proofs verify.

use openclaw_governance::audit::merkle::{
    leaf, verify_consistency, verify_inclusion, Frontier, Hash, Leaves, Tree,
};
use std::hint::black_box;
use std::time::Instant;

#[path = "common/timing.rs"]
mod timing;

const RUNS: usize = 2001;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Proof and verification of tree `m` against tree `n`; panics if the proof does not verify.
fn consistency(tree: &Tree, m: u64, n: u64) -> f64 {
    let (old, new) = match (tree.root(m), tree.root(n)) {
        (Some(old), Some(new)) => (old, new),
        _ => panic!("roots of {m} and {n} leaves"),
    };
    timing::p50_us(0, RUNS, || {
        let proof = tree.consistency(m, n).unwrap_or_default();
        assert!(verify_consistency(m, n, &old, &new, black_box(&proof)));
    })
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let half = n / 2;
    let hashes: Vec<Hash> = (0..n).map(|i| leaf(&i.to_le_bytes())).collect();

    // What keeping leaves and index adds to a scan: the frontier merges are the same, the index
    // only keeps some of them; the rest is storing the leaf hashes a prover needs anyway.
    let t = Instant::now();
    let mut frontier = Frontier::default();
    hashes.iter().for_each(|h| frontier.push(*h));
    let frontier_ms = ms(t);
    let t = Instant::now();
    let mut leaves = Leaves::new();
    hashes.iter().for_each(|h| leaves.push(*h));
    let indexed_ms = ms(t);
    println!(
        "Merkle, {n} leaves: frontier only {frontier_ms:.0} ms, Leaves (leaf hashes + index) {indexed_ms:.0} ms; index {} hashes ({:.2} MB beside {:.1} MB of leaf hashes)",
        leaves.index_len(),
        leaves.index_len() as f64 * 32.0 / 1e6,
        n as f64 * 32.0 / 1e6
    );

    let tree = leaves.tree();
    let aligned = consistency(&tree, half, n);
    // Sizes ending in 63 leaves: the most an edge hashes leaf by leaf with 64-leaf blocks.
    let ragged = consistency(
        &tree,
        (half | 63).saturating_sub(64),
        (n | 63).saturating_sub(64),
    );
    println!(
        "consistency proof + verify, {half} → {n}: p50 {aligned:.1} µs; at ragged sizes (…63 leaves past a block) p50 {ragged:.1} µs (goal ≤ 1000 µs)"
    );

    let root = tree.root(n).unwrap_or_default();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let inclusion = timing::p50_us(0, RUNS, || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let i = (x >> 11) % n;
        let proof = tree.inclusion(i, n).unwrap_or_default();
        assert!(verify_inclusion(
            i,
            n,
            &hashes[i as usize],
            black_box(&proof),
            &root
        ));
    });
    println!("inclusion proof + verify, random leaf of {n}: p50 {inclusion:.1} µs");

    // The same proof without the index, once: what every proof cost before.
    let plain = Tree::new(0, &hashes, &[]);
    let t = Instant::now();
    let proof = plain.consistency(half, n).unwrap_or_default();
    let plain_ms = ms(t);
    assert_eq!(Some(proof), tree.consistency(half, n));
    println!("the same consistency proof without the index: {plain_ms:.0} ms");
}
