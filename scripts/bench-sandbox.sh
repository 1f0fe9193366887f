#!/usr/bin/env bash
# What the sandbox costs a command: `skillpkg exec` with a scripted model
# that runs N shell commands (`true`), in the default sandbox and with
# `--sandbox off`, in a workspace of F files (the end-of-run snapshot walks
# them twice), each run R times; prints the median wall time of each and
# the cost per sandboxed command. The floor is `--sandbox off`, which only
# spawns `/bin/sh -c true`.
#
#   scripts/bench-sandbox.sh [BINARY] [N] [F] [R]
#
# BINARY defaults to target/release/skillpkg (build it first with
# `cargo build --release`). Not part of CI: figures go to BENCHMARKS.md.
set -euo pipefail
bin=${1:-target/release/skillpkg}
n=${2:-20}
files=${3:-10000}
runs=${4:-7}
bin=$(realpath "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/config" "$work/cache" "$work/project/node_modules"
cd "$work/project"
: > skills.toml
for ((i = 0; i < files; i++)); do
  d="node_modules/p$((i / 100))"
  mkdir -p "$d"
  : > "$d/f$i.js"
done
calls=$(for ((i = 0; i < n; i++)); do printf '{"name":"shell","input":{"command":"true"}},'; done)
printf '{"turns":[{"tool_calls":[%s]},{"text":"done"}]}' "${calls%,}" > "$work/model.json"
export HOME="$work/home" SKILLPKG_CONFIG_DIR="$work/config" SKILLPKG_CACHE_DIR="$work/cache" NO_COLOR=1
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  for ((r = 0; r < runs; r++)); do
    start=$(date +%s%N)
    "$bin" exec --model "scripted:$work/model.json" --yes "$@" go >/dev/null 2>&1
    echo $(( ($(date +%s%N) - start) / 1000000 ))
  done | median
}
"$bin" exec --model "scripted:$work/model.json" --yes --require-sandbox go >/dev/null
sandboxed=$(measure)
off=$(measure --sandbox off)
echo "commands per run: $n; files in the workspace: $files; runs: $runs"
echo "sandboxed: ${sandboxed} ms; --sandbox off: ${off} ms (median)"
awk -v s="$sandboxed" -v o="$off" -v n="$n" \
  'BEGIN { printf "cost of the sandbox: %.1f ms per command; ratio %.2fx\n", (s - o) / n, s / o }'
