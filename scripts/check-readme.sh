#!/usr/bin/env bash
# Runs the README's two set-up commands, exactly as written, in a fresh clone
# of this repository, with CARGO_HOME/bin on PATH (install.sh installs there).
# Takes a release build (a few minutes); not part of CI, whose .ci/run
# already runs the test command.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$repo" "$work/clone"
# The README's first two ```sh blocks are the set-up commands.
mapfile -t commands < <(awk '/^```sh$/{grab=1; next} /^```$/{if (grab) n++; grab=0} grab && n<2' "$repo/README.md")
[ "${#commands[@]}" -eq 2 ] || { echo "error: expected two set-up commands in README.md, found ${#commands[@]}" >&2; exit 1; }

export CARGO_TARGET_DIR="$work/target"
export SKILLPKG_CACHE_DIR="$work/cache" SKILLPKG_USER_ROOT="$work/user-skills"
bin="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$bin:$PATH"
ln -s "$repo/../shared" "$work/shared" 2>/dev/null || true
for command in "${commands[@]}"; do
  echo "==> $command" >&2
  (cd "$work/clone" && bash -c "$command")
done
echo "README set-up commands: both succeeded" >&2
