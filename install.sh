#!/usr/bin/env bash
# Builds skillpkg in release mode and installs it.
#
#   ./install.sh                 installs to ~/.cargo/bin
#   ./install.sh --prefix DIR    installs to DIR/bin
#
# Safe to run again: it rebuilds only what changed and replaces the binary.
set -euo pipefail

prefix=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix)
      [ $# -ge 2 ] || { echo "error: --prefix needs a directory" >&2; exit 2; }
      prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h|--help)
      sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo was not found on PATH." >&2
  echo "hint: install Rust (https://rustup.rs), then run ./install.sh again" >&2
  exit 1
fi

args=(install --locked --path "$here" --force --quiet)
if [ -n "$prefix" ]; then
  mkdir -p "$prefix" || { echo "error: cannot create $prefix" >&2; exit 1; }
  args+=(--root "$prefix")
  bindir="$prefix/bin"
else
  bindir="${CARGO_HOME:-$HOME/.cargo}/bin"
fi

echo "Building and installing skillpkg into $bindir (release build, a few minutes the first time)…" >&2
cargo "${args[@]}"
echo "Installed $bindir/skillpkg ($("$bindir/skillpkg" --version))" >&2
case ":$PATH:" in
  *":$bindir:"*) ;;
  *) echo "note: $bindir is not on PATH; add it, e.g. export PATH=\"$bindir:\$PATH\"" >&2 ;;
esac
