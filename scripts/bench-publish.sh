#!/usr/bin/env bash
# Publishes per second to one git index for 1, 5 and 20 concurrent
# publishers, and the size of a search listing of 100,000 packages.
#
# Each publisher is its own machine (its own SKILLPKG_CACHE_DIR) and
# publishes its share of TOTAL different skills one after another, all
# publishers starting together, to a bare repository on this machine
# (file://). A round's rate is TOTAL / wall time; the figure is the median
# of ROUNDS rounds, each on a fresh index. Release build.
#
#   scripts/bench-publish.sh            # TOTAL=40 ROUNDS=3
#   TOTAL=100 ROUNDS=5 scripts/bench-publish.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOTAL="${TOTAL:-40}"
ROUNDS="${ROUNDS:-3}"
cargo build --release --quiet --bin skillpkg
skillpkg="$PWD/target/release/skillpkg"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export SKILLPKG_CONFIG_DIR="$work/config" RUST_BACKTRACE=0 NO_COLOR=1

"$skillpkg" -q keygen --no-password --out "$work/keys" >/dev/null
for i in $(seq 1 "$TOTAL"); do
  mkdir -p "$work/src/skill-$i"
  printf -- '---\nname: skill-%s\ndescription: Benchmark skill %s. Use when measuring publishes.\nmetadata:\n  version: "1.0.0"\n---\nBody.\n' \
    "$i" "$i" >"$work/src/skill-$i/SKILL.md"
done

# One round: $1 publishers on a fresh index; prints publishes per second.
round() {
  local publishers=$1 id="$RANDOM$RANDOM"
  local index="$work/index-$id.git"
  git init -q --bare "$index"
  SKILLPKG_CACHE_DIR="$work/cache-init" "$skillpkg" -q index init "$index" --git \
    --org bench --key "$work/keys/skillpkg.pub"
  local start end failed=0
  start=$(date +%s.%N)
  for p in $(seq 0 $((publishers - 1))); do
    (
      export SKILLPKG_CACHE_DIR="$work/cache-$id-$p"
      for i in $(seq $((p + 1)) "$publishers" "$TOTAL"); do
        "$skillpkg" -q publish "$work/src/skill-$i" --index "file://$index" \
          --org bench --key "$work/keys/skillpkg.key"
      done
    ) &
  done
  for job in $(jobs -p); do wait "$job" || failed=1; done
  end=$(date +%s.%N)
  [ "$failed" -eq 0 ] || { echo "error: a publish failed" >&2; exit 1; }
  local landed
  landed=$(git --git-dir="$index" rev-list --count HEAD)
  [ "$landed" -eq $((TOTAL + 1)) ] || { echo "error: $landed commits, expected $((TOTAL + 1))" >&2; exit 1; }
  echo "$TOTAL / ($end - $start)" | bc -l
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo "| concurrent publishers | publishes/s (median of $ROUNDS, $TOTAL publishes each) |"
echo "|---:|---:|"
for publishers in 1 5 20; do
  rates=$(for _ in $(seq 1 "$ROUNDS"); do round "$publishers"; done)
  printf '| %s | %.1f |\n' "$publishers" "$(echo "$rates" | median)"
done

# The search listing of 100,000 packages: names like real ones, and
# descriptions whose lengths follow the skills in this repository
# (60 to 600 characters, about 250 on average).
python3 - "$work/search.jsonl" <<'EOF'
import json, random, sys
random.seed(7)
words = ("extract text pdf files report write summarise search quote use when the user asks "
         "format citations references data tables charts review code tests deploy api docs "
         "translate images audio convert spreadsheet email calendar notes meeting plan draft").split()
with open(sys.argv[1], "w") as out:
    lines = []
    for i in range(100_000):
        org = f"org-{i % 5000}"
        name = "-".join(random.sample(words, random.randint(1, 3))) + f"-{i}"
        length = int(min(600, max(60, random.gauss(250, 120))))
        desc = ""
        while len(desc) < length:
            desc += random.choice(words) + " "
        desc = desc[:length].strip().capitalize() + "."
        vers = f"{random.randint(0, 3)}.{random.randint(0, 20)}.{random.randint(0, 9)}"
        lines.append((f"{org}/{name}", json.dumps({"name": f"{org}/{name}", "vers": vers, "desc": desc}, separators=(",", ":"))))
    for _, line in sorted(lines):
        out.write(line + "\n")
EOF
raw=$(stat -c %s "$work/search.jsonl")
gz=$(gzip -9 -c "$work/search.jsonl" | wc -c)
zst=$( (command -v zstd >/dev/null && zstd -19 -q -c "$work/search.jsonl" | wc -c) || echo "-")
echo
echo "| search.jsonl, 100,000 packages | bytes |"
echo "|---|---:|"
echo "| plain | $raw |"
echo "| gzip -9 | $gz |"
echo "| zstd -19 | $zst |"

# Searching it: a project whose default registry is a folder holding it.
mkdir -p "$work/big/index" "$work/big/packages" "$work/app"
cp "$work/search.jsonl" "$work/big/"
printf '{"version":1,"dl":"{index}/packages/{org}/{name}/{name}-{version}.skill","keys":{}}\n' >"$work/big/config.json"
printf '[registries]\ndefault = { index = "%s" }\n' "$work/big" >"$work/app/skills.toml"
start=$(date +%s.%N)
(cd "$work/app" && SKILLPKG_CACHE_DIR="$work/cache-search" "$skillpkg" search pdf quote >/dev/null)
end=$(date +%s.%N)
printf '\nsearch over the 100,000-package listing (folder, one run): %.0f ms\n' "$(echo "($end - $start) * 1000" | bc -l)"
