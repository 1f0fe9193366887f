#!/usr/bin/env bash
# What one `publish` costs as a folder index grows: into an index of P
# packages, and beside V versions of the package published.
#
# For each size it generates an index (entry lines shaped like real ones,
# about 700 bytes with their signature; a search listing in the form
# earlier builds wrote, one line per package; for the V case an archive
# file per version), then times `skillpkg publish` of a new version into a copy
# of it: a first publish, shown apart (it is where a listing in the form
# earlier builds wrote is compacted, once), then RUNS publishes, each of
# the next version. It prints the median wall and CPU (user + system)
# time and the largest peak RSS of those runs (wait4's ru_maxrss, what
# `/usr/bin/time -f %M` prints). Wall time includes the fsyncs of the
# archive and the files appended to, which vary from run to run.
#
#   scripts/bench-publish-scale.sh                      # this tree's release build
#   BASELINE=/path/to/old/skillpkg scripts/bench-publish-scale.sh
#   PACKAGES="1000 10000 100000" VERSIONS="10000 100000" RUNS=7 scripts/bench-publish-scale.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PACKAGES="${PACKAGES:-1000 10000 100000}"
VERSIONS="${VERSIONS:-10000 100000}"
RUNS="${RUNS:-7}"
if [ -z "${SKILLPKG:-}" ]; then
  cargo build --release --quiet --bin skillpkg
  SKILLPKG="$PWD/target/release/skillpkg"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" SKILLPKG_CONFIG_DIR="$work/config" SKILLPKG_CACHE_DIR="$work/cache" \
  SKILLPKG_DATA_DIR="$work/data" SKILLPKG_USER_ROOT="$work/user" RUST_BACKTRACE=0 NO_COLOR=1
mkdir -p "$HOME"

"$SKILLPKG" -q keygen --no-password --out "$work/keys" >/dev/null
mkdir -p "$work/skill/target"
printf -- '---\nname: target\ndescription: The skill the benchmark publishes again and again. Use when measuring publishes.\n---\nBody.\n' \
  >"$work/skill/target/SKILL.md"

# generate KIND SIZE DIR: an index of SIZE packages (KIND=packages) or of
# one package with SIZE versions (KIND=versions).
generate() {
  python3 - "$1" "$2" "$3" "$(cat "$work/keys/skillpkg.pub" | tail -1)" <<'EOF'
import json, os, random, sys
kind, size, root, key = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
random.seed(7)
os.makedirs(f"{root}/index", exist_ok=True)
os.makedirs(f"{root}/packages", exist_ok=True)
with open(f"{root}/config.json", "w") as f:
    json.dump({"version": 1, "dl": "{index}/packages/{org}/{name}/{name}-{version}.skill",
               "keys": {"bench": [key]}}, f)
def line(name, vers):
    cksum = "%064x" % random.getrandbits(256)
    sig = ("untrusted comment: signature from skillpkg secret key\n" + "R" * 100
           + f"\ntrusted comment: skillpkg {name}@{vers} sha256:{cksum}\n" + "S" * 88 + "\n")
    desc = "Benchmark skill %s. Use when measuring how publishing scales with the size of an index." % name
    return {"name": name, "vers": vers, "cksum": cksum, "deps": [], "desc": desc, "sig": sig,
            "yanked": False, "size": 700}
listing = []
def package(name, versions):
    org, short = name.split("/")
    os.makedirs(f"{root}/index/{org}", exist_ok=True)
    entries = [line(name, v) for v in versions]
    with open(f"{root}/index/{name}", "w") as f:
        for e in entries:
            f.write(json.dumps(e, separators=(",", ":")) + "\n")
    if kind == "versions":
        os.makedirs(f"{root}/packages/{name}", exist_ok=True)
        for v in versions:
            open(f"{root}/packages/{name}/{short}-{v}.skill", "w").close()
    listing.append({"name": name, "vers": versions[-1], "desc": entries[-1]["desc"]})
if kind == "packages":
    for i in range(size - 1):
        package(f"org-{i % 5000}/skill-{i}", ["1.0.0"])
    package("bench/target", ["0.1.0"])
else:
    package("bench/target", [f"0.{i // 1000}.{i % 1000}" for i in range(size)])
with open(f"{root}/search.jsonl", "w") as f:
    for entry in sorted(listing, key=lambda e: e["name"]):
        f.write(json.dumps(entry, separators=(",", ":")) + "\n")
EOF
}

# measure LABEL BINARY DIR: RUNS timed publishes into DIR after a warm-up.
measure() {
  python3 - "$1" "$2" "$3" "$RUNS" "$work" <<'EOF'
import os, statistics, subprocess, sys, time
label, binary, index, runs, work = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
def publish(n):
    start = time.perf_counter()
    child = subprocess.Popen([binary, "-q", "publish", f"{work}/skill/target", "--index", index,
                              "--org", "bench", "--key", f"{work}/keys/skillpkg.key",
                              "--version", f"9.0.{n}"])
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"publish {n} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss
first = publish(0)
results = [publish(n) for n in range(1, runs + 1)]
wall = statistics.median(r[0] for r in results) * 1000
cpu = statistics.median(r[1] for r in results) * 1000
rss = max(r[2] for r in results) / 1024
print(f"| {label} | {wall:.1f} ms | {cpu:.1f} ms | {rss:.1f} MiB "
      f"| {first[1] * 1000:.1f} ms | {first[2] / 1024:.1f} MiB |")
EOF
}

binaries=("${LABEL:-after}=$SKILLPKG")
[ -n "${BASELINE:-}" ] && binaries=("before=$BASELINE" "${binaries[@]}")

echo "| publish (median of $RUNS, after the first) | wall | CPU | peak RSS | first publish: CPU | first: peak RSS |"
echo "|---|---:|---:|---:|---:|---:|"
for kind in packages versions; do
  sizes=$PACKAGES what="into an index of %s packages"
  [ "$kind" = versions ] && sizes=$VERSIONS what="beside %s versions"
  for size in $sizes; do
    generate "$kind" "$size" "$work/source"
    for labelled in "${binaries[@]}"; do
      label=${labelled%%=*} binary=${labelled#*=}
      rm -rf "$work/index"
      cp -a "$work/source" "$work/index"
      sync # the copy's writes must not land in the publishes' fsyncs
      # shellcheck disable=SC2059
      measure "$label: $(printf "$what" "$size")" "$binary" "$work/index"
    done
    rm -rf "$work/source" "$work/index"
  done
done
