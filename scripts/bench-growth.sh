#!/usr/bin/env bash
# How each operation's cost grows with its input: one entry point for the
# growth figures in BENCHMARKS.md.
#
#   scripts/bench-growth.sh
#
# - F1–F3: `cargo bench --bench growth` (list over N skills, no-op installs
#   with L lock entries, exec sessions of T tool calls; three sizes each,
#   medians, peak RSS, exponents). BENCH_ROWS and BENCH_SCALE pass through.
# - F4–F5: scripts/bench-publish-scale.sh, publishing beside P packages and
#   V versions, when it is there.
# - F6: scripts/bench-memory.sh, peak memory with a 200 MB file (and a
#   500 MB one under --max-skill-size).
# Needs /usr/bin/time (Debian's `time`) for peak memory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo bench --bench growth
if [ -x scripts/bench-publish-scale.sh ]; then
  scripts/bench-publish-scale.sh
fi
cargo build --release --quiet --bin skillpkg
scripts/bench-memory.sh target/release/skillpkg
SIZE_MB=500 SKILL_SIZE=1GB scripts/bench-memory.sh target/release/skillpkg
