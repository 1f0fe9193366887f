#!/usr/bin/env bash
# Builds the wheel and the npm packages for this machine
# (scripts/package.sh), installs each the way a user would, with no
# network beyond the local files (the wheel into a fresh virtual
# environment, the npm tarballs into a fresh folder), and runs the
# README's demo (init, add example/pdf-processing, list) with each
# installed skillpkg: the output must be the cargo-built binary's. The
# npm launcher's message for a platform without a binary must be
# packaging/npm/unsupported-platform.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
for tool in maturin node npm; do
  if ! command -v "$tool" >/dev/null; then
    # CI installs them (.ci/run, scripts/test.sh): a skip there would hide
    # packages that no longer install.
    [ -z "${CI:-}" ] || { echo "error: CI must have $tool to test the packages" >&2; exit 1; }
    echo "SKIPPED: the packages' test needs $tool (pip install maturin; Node.js with npm)" >&2
    exit 0
  fi
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

scripts/package.sh --profile dev --out "$work/out" >/dev/null
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --disable-pip-version-check "$work"/out/skillpkg-*.whl
mkdir "$work/npm"
(cd "$work/npm" && npm install --offline --no-audit --no-fund --loglevel=error "$work"/out/npm/*.tgz >/dev/null)

# The README's demo with `$1`, in a fresh home of its own, paths named.
demo() {
  local binary="$1" name="$2" home="$work/home-$2"
  mkdir -p "$home/skillpkg-demo"
  (
    cd "$home/skillpkg-demo"
    export HOME="$home" NO_COLOR=1 SKILLPKG_CONFIG_DIR="$home/config" SKILLPKG_CACHE_DIR="$home/cache" \
      SKILLPKG_DATA_DIR="$home/data" SKILLPKG_USER_ROOT="$home/skills"
    "$binary" init && "$binary" add example/pdf-processing && "$binary" list
  ) >"$work/$name.out" 2>&1 || { cat "$work/$name.out" >&2; echo "error: the demo failed with $name's skillpkg" >&2; exit 1; }
  sed -i "s|$home|[HOME]|g" "$work/$name.out"
}
cargo build --quiet --bin skillpkg
target_dir="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
demo "$target_dir/debug/skillpkg" cargo
demo "$work/venv/bin/skillpkg" wheel
demo "$work/npm/node_modules/.bin/skillpkg" npm
for name in wheel npm; do
  diff -u "$work/cargo.out" "$work/$name.out" || { echo "error: the $name package's skillpkg says otherwise than cargo's" >&2; exit 1; }
done
grep -q "pdf-processing" "$work/cargo.out"

# Where no binary fits, the launcher says so, exit 1.
status=0
SKILLPKG_NPM_PLATFORM=freebsd-riscv64 "$work/npm/node_modules/.bin/skillpkg" --version 2>"$work/message.txt" || status=$?
[ "$status" = 1 ] || { echo "error: the launcher exited $status on a platform without a binary, not 1" >&2; exit 1; }
diff -u packaging/npm/unsupported-platform.txt "$work/message.txt" \
  || { echo "error: the launcher's message changed; if it should, update packaging/npm/unsupported-platform.txt" >&2; exit 1; }
echo "packages: the wheel and the npm packages install offline and run the demo as cargo's binary does"
