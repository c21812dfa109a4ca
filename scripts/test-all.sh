#!/usr/bin/env bash
# npm test: every test, in the order a failure is cheapest to find.
#   1. Rust core (unit tests, the evaluator property test), then the binding's unit tests
#   2. release build of the Node addon
#   3. node --test: binding, shim through register(api), manifest schema, CLI
#   4. the real OpenClaw host end to end, installed from this package's npm pack tarball
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x node_modules/.bin/napi ] || npm install --no-audit --no-fund
echo "== cargo test"
cargo test
echo "== cargo test: the binding's own unit tests (JSON from JS, held reports) need the node feature"
cargo test --features node --lib napi::
echo "== napi build (the addon profile: release with fat LTO)"
npm run --silent build
echo "== node --test"
node --test __test__/*.test.mjs
echo "== real-host end-to-end"
bash __test__/e2e.sh
