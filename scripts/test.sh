#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test.
# The differential tests compare skillpkg's verdicts with the specification's
# reference validator, and the model adapters are tested against a mock LLM
# server, so both are installed first if missing (PyPI skills-ref, fakellm).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export RUST_BACKTRACE=0

if ! python3 -c 'import skills_ref' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check 'skills-ref==0.1.1'
fi
if ! command -v fakellm >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check 'fakellm==0.3.5'
  # A per-user install puts the command under the user base.
  command -v fakellm >/dev/null 2>&1 || export PATH="$(python3 -m site --user-base)/bin:$PATH"
fi

cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --locked --all-targets -- --skip differential::
# The differential test prints how many cases it compared and how many were valid.
cargo test --locked --test it differential:: -- --nocapture
