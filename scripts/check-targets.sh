#!/usr/bin/env bash
# Compiles skillpkg, warnings denied, for the platforms this Linux machine
# cannot run: Windows (x86_64-pc-windows-gnu, its C compiled for real by
# mingw-w64) and macOS (aarch64-apple-darwin, whose C dependencies the
# stand-in compiler scripts/check-only/cc skips: `cargo check` never links).
# Both in the default configuration, which on those platforms has no Linux
# backend. So code that exists only for Linux or Unix, or a Windows or
# macOS counterpart that does not compile, fails here.
#
# The targets' standard libraries come from rustup, mingw-w64 from apt
# (.ci/run installs it). Where either is missing and cannot be had, this
# says SKIPPED loudly and exits 0; under CI it fails instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
targets=(x86_64-pc-windows-gnu aarch64-apple-darwin)

missing() {
  if [ -n "${CI:-}" ]; then
    echo "error: cross-platform checks: $1" >&2
    exit 1
  fi
  echo "SKIPPED: cross-platform checks (Windows, macOS): $1" >&2
  exit 0
}

installed=$(rustup target list --installed)
for target in "${targets[@]}"; do
  if ! grep -qx "$target" <<<"$installed" && ! rustup target add "$target"; then
    missing "no standard library for $target (rustup target add $target failed)"
  fi
done
command -v x86_64-w64-mingw32-gcc >/dev/null ||
  missing "x86_64-w64-mingw32-gcc not found (apt-get install gcc-mingw-w64-x86-64)"
stand_in="$PWD/scripts/check-only/cc"
for target in "${targets[@]}"; do
  echo "checking $target" >&2
  case "$target" in
    *-apple-darwin)
      # openssl-sys reads the host's OpenSSL headers (through pkg-config)
      # for its version: nothing of it is linked.
      env "CC_${target//-/_}=$stand_in" "AR_${target//-/_}=ar" PKG_CONFIG_ALLOW_CROSS=1 \
        RUSTFLAGS="-D warnings" cargo check --locked --target "$target" ;;
    *)
      RUSTFLAGS="-D warnings" cargo check --locked --target "$target" ;;
  esac
done
