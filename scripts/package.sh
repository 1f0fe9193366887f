#!/usr/bin/env bash
# Builds the packages that install skillpkg without Rust, for this
# machine's platform:
#   - the Python wheel (maturin, bindings = "bin"): pip, pipx, uvx;
#   - the npm packages: `skillpkg` (the launcher) and
#     `@skillpkg/cli-<platform>` (the binary), as npm tarballs.
#
#   scripts/package.sh [--profile dev|release] [--out DIR]
#
# Default: --profile release, --out target/package. The release workflow
# (docs/releasing.md) builds the same packages on each platform's runner.
set -euo pipefail

profile=release
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${out:-$here/target/package}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
for tool in maturin npm node; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not on PATH (pip install maturin; Node.js with npm)" >&2; exit 1; }
done
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$here/Cargo.toml" | head -1)"

# The npm name of this platform, as the launcher names it.
os="$(uname -s)"; cpu="$(uname -m)"
case "$os" in
  Linux) npm_os=linux ;;
  Darwin) npm_os=darwin ;;
  MINGW*|MSYS*|CYGWIN*) npm_os=win32 ;;
  *) echo "error: no npm platform for $os" >&2; exit 1 ;;
esac
case "$cpu" in
  x86_64|amd64) npm_cpu=x64 ;;
  aarch64|arm64) npm_cpu=arm64 ;;
  *) echo "error: no npm platform for $cpu" >&2; exit 1 ;;
esac
platform="$npm_os-$npm_cpu"
libc=""
if [ "$npm_os" = linux ]; then
  if ldd --version 2>&1 | grep -qi musl; then libc=musl; else libc=glibc; fi
  platform="$platform-$([ "$libc" = musl ] && echo musl || echo gnu)"
fi

# The wheel. The binary links the system's OpenSSL (git2's https), so the
# wheel is tagged for this Linux only, not manylinux; docs/releasing.md.
rm -f "$out"/skillpkg-*.whl
(cd "$here" && maturin build --quiet --profile "$profile" --compatibility linux --auditwheel skip --out "$out")
ls "$out"/skillpkg-*.whl >/dev/null

# The binary cargo built for the wheel.
target_dir="$(cd "$here" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
case "$profile" in dev) profile_dir=debug ;; *) profile_dir="$profile" ;; esac
exe=skillpkg; [ "$npm_os" = win32 ] && exe=skillpkg.exe
binary="$target_dir/$profile_dir/$exe"

# The npm packages.
npm_dir="$out/npm"
rm -rf "$npm_dir"; mkdir -p "$npm_dir/cli/bin" "$npm_dir/skillpkg"
cp "$binary" "$npm_dir/cli/bin/$exe"
libc_field=""
[ -n "$libc" ] && libc_field="\"libc\": [\"$libc\"],"
cat > "$npm_dir/cli/package.json" <<JSON
{
  "name": "@skillpkg/cli-$platform",
  "version": "$version",
  "description": "The skillpkg binary for $platform (installed by the skillpkg package)",
  "license": "MIT",
  "os": ["$npm_os"],
  "cpu": ["$npm_cpu"],
  $libc_field
  "files": ["bin/$exe"]
}
JSON
cp -R "$here/packaging/npm/skillpkg/." "$npm_dir/skillpkg/"
node -e '
  const fs = require("fs");
  const [file, version] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.version = version;
  const platforms = ["darwin-arm64", "darwin-x64", "linux-arm64-gnu", "linux-arm64-musl", "linux-x64-gnu", "linux-x64-musl", "win32-x64"];
  pkg.optionalDependencies = Object.fromEntries(platforms.map((p) => [`@skillpkg/cli-${p}`, version]));
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$npm_dir/skillpkg/package.json" "$version"
(cd "$npm_dir" && npm pack --silent ./cli ./skillpkg >/dev/null)
ls "$out"/skillpkg-*.whl "$npm_dir"/*.tgz
