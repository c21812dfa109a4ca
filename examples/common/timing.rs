//! Timing shared by the Rust-only benchmarks (`#[path]`-included: Cargo builds only the
//! examples' own files as programs).

use std::time::Instant;

/// Median wall time of `f` in µs over `runs` calls, after `warmup` calls not counted.
pub fn p50_us(warmup: usize, runs: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..warmup {
        f();
    }
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_nanos() as f64 / 1000.0
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[times.len() / 2]
}
