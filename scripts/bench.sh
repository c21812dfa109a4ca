#!/usr/bin/env bash
# npm run bench: release build of the addon and of the Rust-only example, then the measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build >/dev/null
cargo build --release --example bench_engine --quiet
node bench/bench.mjs
# Output validation without Node, with the addon's allocator: where the time goes.
cargo build --release --features node --example bench_output --quiet
echo
echo "Output validation, engine core in Rust (no Node), the same text and registries"
BENCH_OUTPUT_ONLY=1 target/release/examples/bench_output | tail -1
BENCH_OUTPUT_ONLY=1 BENCH_NO_AUDIT=1 target/release/examples/bench_output | tail -1
