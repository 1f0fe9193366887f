#!/usr/bin/env node
// Runs the skillpkg binary that npm installed for this platform, from
// one of the optional dependencies `@skillpkg/cli-<platform>` (the shape
// of Biome's and esbuild's packages). Where none fits, says so and names
// the other ways to install skillpkg.
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

/** The platforms a binary is published for, by `<os>-<cpu>[-<libc>]`. */
const PLATFORMS = [
  "darwin-arm64",
  "darwin-x64",
  "linux-arm64-gnu",
  "linux-arm64-musl",
  "linux-x64-gnu",
  "linux-x64-musl",
  "win32-x64",
];

/** This machine as PLATFORMS names it (SKILLPKG_NPM_PLATFORM, a test hook, names another). */
function thisPlatform() {
  if (process.env.SKILLPKG_NPM_PLATFORM) {
    return process.env.SKILLPKG_NPM_PLATFORM;
  }
  let name = `${process.platform}-${process.arch}`;
  if (process.platform === "linux") {
    // glibc says its version in Node's report; musl has none.
    const header = process.report && process.report.getReport().header;
    name += header && header.glibcVersionRuntime ? "-gnu" : "-musl";
  }
  return name;
}

/** What to say when no binary fits, and how to install skillpkg instead. */
function noBinary(platform, why) {
  return [
    `skillpkg: ${why}`,
    `The npm package ships binaries for: ${PLATFORMS.join(", ")}.`,
    "Install skillpkg another way:",
    "  pip install skillpkg   (or: uvx skillpkg, pipx install skillpkg)",
    "  the shell installer of the release (curl … | sh), or PowerShell's on Windows",
    "  from source: in a clone of skillpkg's repository, ./install.sh (it needs Rust)",
    "",
  ].join("\n");
}

function main() {
  const platform = thisPlatform();
  if (!PLATFORMS.includes(platform)) {
    process.stderr.write(noBinary(platform, `there is no prebuilt binary for ${platform}.`));
    return 1;
  }
  const pkg = `@skillpkg/cli-${platform}`;
  const exe = process.platform === "win32" ? "skillpkg.exe" : "skillpkg";
  let binary;
  try {
    binary = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch {
    process.stderr.write(
      noBinary(
        platform,
        `${pkg}, which holds the binary for ${platform}, is not installed (npm leaves optional dependencies out with --omit=optional or --no-optional).`,
      ),
    );
    return 1;
  }
  const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
  if (run.error) {
    process.stderr.write(`skillpkg: could not run ${binary}: ${run.error.message}\n`);
    return 1;
  }
  if (run.signal) {
    // Ended by a signal: end the same way, as a shell expects.
    process.kill(process.pid, run.signal);
  }
  return run.status === null ? 1 : run.status;
}

process.exitCode = main();
