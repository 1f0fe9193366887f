#!/usr/bin/env bash
# Peak memory (maximum resident set size, `/usr/bin/time -f %M`) of pack,
# publish, add (from a folder index, from an HTTP index, and --path), a
# warm `install --locked` and `verify`, on a skill holding one big file of
# random bytes (incompressible, so the zip-bomb ratio check has nothing to
# say), generated in a temporary folder that is deleted afterwards.
#
#   scripts/bench-memory.sh [BINARY]            # 200 MB, default limits
#   SIZE_MB=500 SKILL_SIZE=1GB scripts/bench-memory.sh [BINARY]
#
# BINARY defaults to a release build of this tree. With SKILL_SIZE, every
# command that takes --max-skill-size gets it. A command that fails is
# reported as `failed` with its first error line. Needs python3 (the HTTP
# index is `python3 -m http.server` on 127.0.0.1).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SIZE_MB="${SIZE_MB:-200}"
SKILL_SIZE="${SKILL_SIZE:-}"
if [ $# -ge 1 ]; then
  skillpkg="$(realpath "$1")"
else
  cargo build --release --quiet --bin skillpkg
  skillpkg="$PWD/target/release/skillpkg"
fi
work="$(mktemp -d)"
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" SKILLPKG_CONFIG_DIR="$work/config" SKILLPKG_CACHE_DIR="$work/cache" \
  SKILLPKG_DATA_DIR="$work/data" SKILLPKG_USER_ROOT="$work/user-skills" \
  RUST_BACKTRACE=0 NO_COLOR=1
mkdir -p "$HOME"
limit=()
[ -n "$SKILL_SIZE" ] && limit=(--max-skill-size "$SKILL_SIZE")

# The skill: SKILL.md and one file of SIZE_MB megabytes of random bytes.
mkdir -p "$work/src/big"
printf -- '---\nname: big\ndescription: A skill with one big file. Use when measuring memory.\nmetadata:\n  version: "1.0.0"\n---\nBody.\n' \
  >"$work/src/big/SKILL.md"
head -c "$((SIZE_MB * 1000 * 1000))" /dev/urandom >"$work/src/big/data.bin"

"$skillpkg" -q keygen --no-password --out "$work/keys" >/dev/null
"$skillpkg" -q index init "$work/index" --org bench --key "$work/keys/skillpkg.pub" >/dev/null

# Runs a command in folder $2, prints `| $1 | peak MiB |` (or `failed`).
measure() {
  local label=$1 dir=$2
  shift 2
  mkdir -p "$dir"
  if (cd "$dir" && /usr/bin/time -f %M -o "$work/rss" "$skillpkg" -q "$@" >/dev/null 2>"$work/err"); then
    printf '| %s | %d |\n' "$label" "$(($(tail -n 1 "$work/rss") / 1024))"
  else
    printf '| %s | failed: %s |\n' "$label" "$(grep -m 1 -i 'error' "$work/err" | cut -c 1-120)"
  fi
}

# A project using registry $2 (a folder or URL) as its default.
project() {
  mkdir -p "$1"
  (cd "$1" && "$skillpkg" -q init >/dev/null && "$skillpkg" -q registry add bench "$2" --default >/dev/null)
}

echo "| ${SIZE_MB} MB file${SKILL_SIZE:+, --max-skill-size $SKILL_SIZE} | peak RSS (MiB) |"
echo "|---|---:|"
measure pack "$work" pack "$work/src/big" -o "$work/big.skill" "${limit[@]}"
measure publish "$work" publish "$work/src/big" --index "$work/index" --org bench \
  --key "$work/keys/skillpkg.key" "${limit[@]}"

project "$work/p-folder" "$work/index"
measure "add (folder index)" "$work/p-folder" add bench/big "${limit[@]}"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/index" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/config.json')" 2>/dev/null && break
  sleep 0.1
done
project "$work/p-http" "http://127.0.0.1:$port"
# Its own cache, so the archive is downloaded rather than found.
SKILLPKG_CACHE_DIR="$work/cache-http" measure "add (HTTP index)" "$work/p-http" add bench/big "${limit[@]}"

project "$work/p-path" "$work/index"
measure "add --path" "$work/p-path" add --path "$work/src/big" "${limit[@]}"

# A teammate's clone: the manifest and lock, nothing installed, the
# archive in the cache (warm).
mkdir -p "$work/p-clone"
cp "$work/p-folder/skills.toml" "$work/p-folder/skills.lock" "$work/p-clone/"
measure "install --locked (warm)" "$work/p-clone" install --locked "${limit[@]}"
measure verify "$work/p-clone" verify
