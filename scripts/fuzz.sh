#!/usr/bin/env bash
# Fuzzes the parsers that read untrusted input, one target at a time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS is each target's fuzzing time (default 300); the targets default to
# all of them (fuzz/Cargo.toml). cargo-fuzz is installed if missing. A nightly
# toolchain is used when rustup has one, else stable with RUSTC_BOOTSTRAP=1
# (libFuzzer needs unstable compiler flags). Each corpus (fuzz/corpus/TARGET)
# is seeded from the repository; crashes land in fuzz/artifacts/TARGET and
# each run's output in fuzz/logs/TARGET.log. Prints, per target, the runs
# (inputs executed) and crashes, and exits non-zero if any target crashed.
#
# Not part of CI or scripts/test.sh: it takes minutes of CPU per target.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

duration=${1:-300}
if ! [[ $duration =~ ^[0-9]+$ ]] || [ "$duration" -eq 0 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (SECONDS: a whole number > 0)" >&2
  exit 2
fi
shift $(($# > 0 ? 1 : 0))

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz (cargo install cargo-fuzz --locked)"
  cargo install cargo-fuzz --locked
fi

toolchain=()
if command -v rustup >/dev/null 2>&1 && rustup toolchain list | grep -q '^nightly'; then
  toolchain=(+nightly)
  echo "fuzz.sh: toolchain: nightly ($(rustc +nightly --version))"
else
  export RUSTC_BOOTSTRAP=1
  echo "fuzz.sh: toolchain: stable with RUSTC_BOOTSTRAP=1 ($(rustc --version)); no nightly found"
fi

# The fuzz crate is a workspace of its own, built with sanitizer flags: keep
# it out of any shared target directory.
export CARGO_TARGET_DIR="$root/fuzz/target"

all=$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^skillpkg-fuzz$')
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  read -r -a targets <<<"$(echo $all)"
fi
for target in "${targets[@]}"; do
  if ! grep -qx "$target" <<<"$all"; then
    echo "fuzz.sh: no target '$target' (targets: $(echo $all))" >&2
    exit 2
  fi
done

# Seeds from the repository; libFuzzer keeps what adds coverage.
seed() {
  local target=$1
  shift
  local dir="fuzz/corpus/$target" file
  mkdir -p "$dir"
  for file in "$@"; do
    [ -f "$file" ] || continue
    cp "$file" "$dir/seed-$(echo "$file" | tr '/' '_')"
  done
}
seed_all() {
  seed frontmatter sample-skills/*/SKILL.md skills/*/SKILL.md
  seed extract registry-index/packages/*/*/*.skill
  seed index_entry registry-index/index/*/*
  seed manifest fuzz/seeds/manifest/*
  seed lockfile fuzz/seeds/lockfile/*
  local target
  for target in grant_parser npx_lock search_listing trust_file model_stream git_shorthand untar; do
    seed "$target" fuzz/seeds/"$target"/*
  done
  seed search_listing registry-index/search.jsonl
}
seed_all

mkdir -p fuzz/logs
for target in "${targets[@]}"; do
  echo "fuzz.sh: building $target"
  if ! cargo "${toolchain[@]}" fuzz build "$target" >fuzz/logs/build.log 2>&1; then
    tail -n 40 fuzz/logs/build.log
    echo "fuzz.sh: the build of $target failed (fuzz/logs/build.log)" >&2
    exit 1
  fi
done

# What libFuzzer writes when an input fails: a crash (panic), a hang, a
# memory blow-up or a leak.
findings() {
  find "fuzz/artifacts/$1" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) "${@:2}" | sort
}

summary=()
failed=0
for target in "${targets[@]}"; do
  log="fuzz/logs/$target.log"
  mkdir -p "fuzz/artifacts/$target"
  marker="fuzz/logs/.$target.start"
  touch "$marker"
  echo "fuzz.sh: $target for ${duration}s (log: $log)"
  start=$(date +%s)
  options=(-max_total_time="$duration" -timeout=10 -print_final_stats=1)
  case $target in
  manifest | lockfile | trust_file) options+=(-dict="$root"/fuzz/dicts/toml.dict) ;;
  index_entry | search_listing) options+=(-dict="$root"/fuzz/dicts/json.dict) ;;
  grant_parser) options+=(-dict="$root"/fuzz/dicts/shell.dict) ;;
  npx_lock) options+=(-dict="$root"/fuzz/dicts/npx_lock.dict) ;;
  model_stream) options+=(-dict="$root"/fuzz/dicts/sse.dict) ;;
  git_shorthand) options+=(-dict="$root"/fuzz/dicts/shorthand.dict) ;;
  esac
  status=0
  cargo "${toolchain[@]}" fuzz run "$target" -- "${options[@]}" >"$log" 2>&1 || status=$?
  elapsed=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ -z "$runs" ]; then
    # No final stats (killed?): the last status line, "#RUNS ...".
    runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  fi
  crashes=$(findings "$target" -newer "$marker" | wc -l)
  if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ]; then
    crashes=1 # a failure that wrote no artifact (a build error, an OOM kill)
  fi
  if [ "$status" -ne 0 ]; then
    failed=1
    tail -n 40 "$log"
    findings "$target" -newer "$marker" | sed 's/^/  artifact: /'
  fi
  summary+=("$(printf '%-14s %6ss %12s runs %3s crashes' "$target" "$elapsed" "${runs:-?}" "$crashes")")
  echo "fuzz.sh: ${summary[-1]}"
done

echo
echo "fuzz.sh: summary ($([ ${#toolchain[@]} -gt 0 ] && echo nightly || echo 'stable, RUSTC_BOOTSTRAP=1'))"
printf '  %s\n' "${summary[@]}"
exit "$failed"
