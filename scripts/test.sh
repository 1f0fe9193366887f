#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test.
# The differential tests compare skillpkg's verdicts with the specification's
# reference validator, the model adapters are tested against a mock LLM
# server, and SBOMs against the formats' own validators, so these are
# installed first if missing (PyPI skills-ref, fakellm,
# cyclonedx-python-lib, spdx-tools; npm @microsoft/sarif-multitool for
# the scanner's SARIF; maturin for the wheel).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export RUST_BACKTRACE=0

if ! python3 -c 'import skills_ref' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check 'skills-ref==0.1.1'
fi
if ! python3 -c 'import fakellm' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check 'fakellm==0.3.5'
fi
if ! python3 -c 'import fastmcp, mcp' 2>/dev/null; then
  # Independent MCP clients for `serve --mcp`: FastMCP (with its Skills
  # extension client) and the MCP Python SDK it depends on.
  python3 -m pip install --quiet --disable-pip-version-check 'fastmcp==4.2.3'
fi
if ! python3 -c 'import cyclonedx.validation.json, spdx_tools, jsonschema' 2>/dev/null; then
  # jsonschema also validates `outdated --json` against docs/outdated.schema.json.
  python3 -m pip install --quiet --disable-pip-version-check \
    'cyclonedx-python-lib[json-validation]==11.12.0' 'spdx-tools==0.8.5' 'jsonschema==4.26.0'
fi

if ! command -v maturin >/dev/null; then
  # Builds the wheel that scripts/test-packages.sh installs.
  python3 -m pip install --quiet --disable-pip-version-check 'maturin==1.16.0'
fi

if [ ! -x target/tools/sarif/node_modules/.bin/sarif-multitool ] && command -v npm >/dev/null; then
  # Microsoft's SARIF multitool validates `skillpkg scan --sarif`.
  npm install --silent --no-audit --no-fund --prefix target/tools/sarif '@microsoft/sarif-multitool@5.7.0'
fi

cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --locked --all-targets -- --skip differential::
# `--all-targets` leaves out the documentation's examples.
cargo test --locked --doc
# The portable configuration: built as on a platform without a sandbox
# backend, it must compile, pass clippy and pass every test that needs no
# sandbox (those that do say that they skip).
cargo clippy --all-targets --locked --no-default-features -- -D warnings
cargo test --locked --all-targets --no-default-features -- --skip differential::
# Windows and macOS, which this machine cannot run, compiled (cargo check,
# warnings denied) from the same sources.
scripts/check-targets.sh
# The packages that install skillpkg without Rust: the wheel and the npm
# packages, installed offline, run the README's demo as cargo's binary does.
scripts/test-packages.sh
# The differential test prints how many cases it compared and how many were valid.
cargo test --locked --test it differential:: -- --nocapture
