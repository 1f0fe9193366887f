#!/usr/bin/env bash
# Rebuilds registry-index/ (the sample index shipped with skillpkg) from
# sample-skills/, signed with a freshly generated key. Only the public key
# is kept (in registry-index/config.json); the secret key is deleted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo build --quiet
skillpkg="$PWD/target/debug/skillpkg"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export SKILLPKG_CACHE_DIR="$work/cache" SKILLPKG_CONFIG_DIR="$work/config"

"$skillpkg" -q keygen --no-password --out "$work/keys" >/dev/null
rm -rf registry-index
"$skillpkg" -q index init registry-index --org example --key "$work/keys/skillpkg.pub"

publish() { "$skillpkg" -q publish "sample-skills/$1" --index registry-index --org example --key "$work/keys/skillpkg.key" "${@:2}"; }
publish pdf-processing
publish citation-style
# A second major version, so that report-writer's ^1 has a newer one to pass over.
publish citation-style --version 2.0.0
publish report-writer
# One line per package in the search listing, sorted (publishes append).
"$skillpkg" -q index init registry-index

echo "Rebuilt registry-index/ with public key $(sed -n 2p "$work/keys/skillpkg.pub")" >&2
