#!/usr/bin/env bash
# npm run bench: release build of the addon and of the Rust-only example, then the measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build >/dev/null
cargo build --release --example bench_engine --quiet
node bench/bench.mjs
