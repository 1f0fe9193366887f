#!/usr/bin/env bash
# Builds skillpkg in release mode and installs it.
#
#   ./install.sh                 installs to ~/.cargo/bin
#   ./install.sh --prefix DIR    installs to DIR/bin
#
# Safe to run again: it rebuilds only what changed and replaces the binary.
# Before building, it checks for cargo and, on Linux, for pkg-config and the
# OpenSSL headers (git2's https transport builds against them), and prints
# the command that installs whatever is missing.
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

# git2's https transport compiles against the system OpenSSL (openssl-sys),
# which on Linux is found through pkg-config. Without them the build stops
# minutes in, inside cargo; check first. OPENSSL_DIR, or OPENSSL_LIB_DIR with
# OPENSSL_INCLUDE_DIR, tells openssl-sys where OpenSSL is without pkg-config.
if [ "$(uname -s)" = Linux ] && [ -z "${OPENSSL_DIR:-}" ] \
   && { [ -z "${OPENSSL_LIB_DIR:-}" ] || [ -z "${OPENSSL_INCLUDE_DIR:-}" ]; }; then
  missing=()
  if command -v pkg-config >/dev/null 2>&1; then
    pkg-config --exists openssl \
      || missing+=("the OpenSSL development headers were not found (pkg-config does not know openssl)")
  else
    missing+=("pkg-config was not found on PATH (the build uses it to find OpenSSL)")
    [ -f /usr/include/openssl/ssl.h ] \
      || missing+=("the OpenSSL development headers were not found (no /usr/include/openssl/ssl.h)")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    for what in "${missing[@]}"; do echo "error: $what." >&2; done
    sudo="sudo "
    [ "$(id -u)" -ne 0 ] || sudo=""
    echo "note: git2's https transport (git+https:// sources) compiles against the system OpenSSL." >&2
    echo "hint: on Debian/Ubuntu run '${sudo}apt-get install -y pkg-config libssl-dev'," >&2
    echo "      elsewhere your system's pkg-config and OpenSSL development packages, then run ./install.sh again" >&2
    exit 1
  fi
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
