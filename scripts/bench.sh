#!/usr/bin/env bash
# npm run bench: release build of the addon and of the Rust-only example, then the measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
# Where cargo puts its builds: the default, or the CARGO_TARGET_DIR a developer set.
bin="${CARGO_TARGET_DIR:-target}/release/examples"
npm run --silent build >/dev/null
cargo build --release --example bench_engine --quiet
# The addon's allocator (mimalloc) for the load and many-agents figures, as in production.
cargo build --release --features node --example bench_load --example bench_agents --quiet
node bench/bench.mjs
# Output validation without Node, with the addon's allocator: where the time goes.
cargo build --release --features node --example bench_output --quiet
echo
echo "Output validation, engine core in Rust (no Node), the same text and registries"
BENCH_OUTPUT_ONLY=1 "$bin"/bench_output | tail -1
BENCH_OUTPUT_ONLY=1 BENCH_NO_AUDIT=1 "$bin"/bench_output | tail -1
# Config load, one fresh process per size so each peak (VmHWM) is that load's alone.
echo
echo "Config load: regex policies of a mixed realistic shape (see examples/bench_load.rs), builtins on; goal for 1 000: ≤ 1 s, ≤ 300 MB"
for n in 10 100 1000; do "$bin"/bench_load "$n" mixed; done
"$bin"/bench_load 1000 unicode-count
# Merkle proofs for auditors and witnesses (Rust only); issue 15's goal: 10^6 → 2·10^6 leaves ≤ 1 ms.
echo
cargo build --release --example merkle_bench --quiet && "$bin"/merkle_bench
