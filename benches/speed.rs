//! Benchmark: the speed goals of issue 13, side by side in one run.
//!
//! (a) A no-op `install` of a project with 16 git skills against one with
//!     16 registry skills (the same trees).
//! (b) A cold `add --git` of a local 16-skill repository (cache emptied
//!     before each run) against `npx skills add <path> --skill '*' -y
//!     --agent claude-code` (skills 1.7.4).
//! (c) A warm `install --locked` of 200 registry skills (about 23 MB)
//!     into a fresh checkout, against `cp -r` of the same trees and
//!     `npx skills add` of their source folders.
//!
//! Run it with `scripts/bench-speed.sh`, which installs skills 1.7.4 (and
//! a Node.js it runs on) and passes it as `SKILLS_CLI`; without that
//! variable the npx rows are left out. `BENCH_BASELINE=<a skillpkg
//! binary>` adds that binary's figures beside this build's. It prints
//! Markdown for BENCHMARKS.md.

#![allow(clippy::print_stdout, clippy::print_stderr)] // tests say when they skip; benches print their tables

#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../tests/it/server.rs"]
mod server;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    Case, Numbered, RUNS, copy_tree, fresh_checkout, fresh_dir, publish_bench, skillpkg,
    skillpkg_with, time_interleaved,
};
use skillpkg::index::local::IndexDir;

/// Registry packages published (goal c installs all of them).
const SKILLS: usize = 200;
/// Skills in the git repository, and registry skills in goal a.
const GIT_SKILLS: usize = 16;
/// Reference files per skill, and the size of each.
const REFERENCES: usize = 10;
const REFERENCE_BYTES: usize = 11_200;

/// About `bytes` bytes of text: words drawn from a small vocabulary by a
/// fixed pseudo-random sequence, so the files compress as prose does.
fn prose(seed: u64, bytes: usize) -> String {
    const WORDS: [&str; 24] = [
        "the", "skill", "reads", "a", "file", "and", "writes", "its", "summary", "when", "asked",
        "to", "check", "each", "table", "of", "report", "with", "care", "before", "running",
        "scripts", "on", "data",
    ];
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005) | 1;
    let mut text = String::with_capacity(bytes + 16);
    let mut column = 0;
    while text.len() < bytes {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let word = WORDS[(state % WORDS.len() as u64) as usize];
        text.push_str(word);
        column += word.len() + 1;
        if column > 72 {
            text.push('\n');
            column = 0;
        } else {
            text.push(' ');
        }
    }
    text
}

/// Writes the skill `pkg-<i>` into `dir`: a SKILL.md, reference files
/// and one executable script, about 115 KB.
fn write_source(dir: &Path, i: usize) {
    let name = format!("pkg-{i}");
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: Benchmark skill {i}. Use when measuring installs.\n---\n\n# {name}\n\n{}",
            prose(i as u64, 2_000)
        ),
    )
    .unwrap();
    for f in 0..REFERENCES {
        std::fs::write(
            dir.join(format!("references/r{f}.md")),
            prose((i * 100 + f) as u64 + 7, REFERENCE_BYTES),
        )
        .unwrap();
    }
    let script = dir.join("scripts/check.sh");
    std::fs::write(&script, format!("#!/bin/sh\necho {name}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The sources of every skill (`<temp>/src/pkg-<i>`), published signed
/// into a folder index of org `bench`; returns the sources and the index.
fn build_index(temp: &Path) -> (PathBuf, PathBuf) {
    let keys = temp.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let generated = skillpkg::store::signing::generate_keys(&keys, false).unwrap();
    let index = temp.join("index");
    IndexDir::init(&index, Some(("bench", &generated.public_key))).unwrap();
    let sources = temp.join("src");
    for i in 0..SKILLS {
        let dir = sources.join(format!("pkg-{i}"));
        write_source(&dir, i);
        publish_bench(&dir, &index, &generated.secret_key_file, None);
    }
    (sources, index)
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.com",
        ])
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// A git repository holding the first `GIT_SKILLS` sources under `skills/`.
fn build_repository(temp: &Path, sources: &Path) -> PathBuf {
    let repo = temp.join("repo");
    std::fs::create_dir_all(repo.join("skills")).unwrap();
    for i in 0..GIT_SKILLS {
        let name = format!("pkg-{i}");
        copy_tree(&sources.join(&name), &repo.join("skills").join(&name));
    }
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "skills"]);
    repo
}

/// A project at `dir` whose manifest wants `bench/pkg-0` … `bench/pkg-<n-1>`.
fn registry_project(dir: &Path, url: &str, n: usize) {
    fresh_dir(dir);
    let mut manifest = format!("[registries]\ndefault = {{ index = \"{url}\" }}\n\n[skills]\n");
    for i in 0..n {
        manifest.push_str(&format!("\"bench/pkg-{i}\" = \"1\"\n"));
    }
    std::fs::write(dir.join("skills.toml"), manifest).unwrap();
}

/// Runs `skills add <from> --skill '*' -y --agent claude-code` in `dir`
/// and checks that it installed `n` skills.
fn npx_skills_add(cli: &Path, temp: &Path, dir: &Path, from: &Path, n: usize) {
    let out = Command::new(cli)
        .arg("add")
        .arg(from)
        .args(["--skill", "*", "-y", "--agent", "claude-code"])
        .current_dir(dir)
        .env("HOME", temp.join("npx-home"))
        .env("DO_NOT_TRACK", "1")
        .env("DISABLE_TELEMETRY", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "skills add: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let installed = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "SKILL.md")
        .count();
    assert!(installed >= n, "skills add installed {installed} of {n}");
}

/// Reads every file under `from`, hashes it with sha256 and writes it
/// under `to`, on one thread, in this process: the least an install that
/// verifies what it writes does with the bytes (`cp -r` hashes nothing and
/// copies inside the kernel).
fn hash_and_copy(from: &Path, to: &Path) {
    use sha2::Digest as _;
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            let bytes = std::fs::read(entry.path()).unwrap();
            std::hint::black_box(sha2::Sha256::digest(&bytes));
            std::fs::write(&target, &bytes).unwrap();
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn ratio(d: Duration, to: Duration) -> String {
    format!("{:.2}×", d.as_secs_f64() / to.as_secs_f64())
}

/// Bytes and files under `dir`.
fn size_of(dir: &Path) -> (u64, usize) {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .fold((0, 0), |(bytes, files), e| {
            (bytes + e.metadata().unwrap().len(), files + 1)
        })
}

/// One row of a results table: a label and its median.
struct Row {
    label: String,
    time: Duration,
}

fn table(title: &str, floor: &Row, rows: &[Row]) {
    println!("| {title} (median of {RUNS}) | time | vs {} |", floor.label);
    println!("|---|---:|---:|");
    for row in std::iter::once(floor).chain(rows) {
        println!(
            "| {} | {} | {} |",
            row.label,
            ms(row.time),
            ratio(row.time, floor.time)
        );
    }
    println!();
}

#[allow(clippy::too_many_lines)]
fn main() {
    // `cargo test --all-targets` runs this binary without `--bench`: skip.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let skills_cli = std::env::var_os("SKILLS_CLI").map(PathBuf::from);
    let baseline = std::env::var_os("BENCH_BASELINE").map(PathBuf::from);
    let temp = tempfile::tempdir().unwrap();
    let temp = match std::env::var_os("BENCH_KEEP") {
        Some(_) => temp.keep(),
        None => temp.path().to_path_buf(),
    };
    let temp = temp.as_path();
    let built = Instant::now();
    let (sources, index) = build_index(temp);
    let repo = build_repository(temp, &sources);
    eprintln!(
        "{SKILLS} skills published in {:?} under {}",
        built.elapsed(),
        temp.display()
    );
    let server = server::StaticServer::start(&index);
    let url = server.url();
    let base = baseline.as_deref();
    let cli = skills_cli.as_deref();
    let npx = cli.is_some();

    // (a) No-op installs: both projects installed once, then run again.
    let cache_a = temp.join("cache-a");
    let registry16 = temp.join("registry16");
    registry_project(&registry16, &url, GIT_SKILLS);
    skillpkg(temp, &cache_a, &registry16, &["install"]);
    let git16 = temp.join("git16");
    registry_project(&git16, &url, 0);
    let repo_arg = repo.to_str().unwrap();
    skillpkg(temp, &cache_a, &git16, &["add", "--git", repo_arg]);
    let noop = |project: &Path, binary: Option<&Path>| {
        let binary = binary.map_or(
            PathBuf::from(env!("CARGO_BIN_EXE_skillpkg")),
            Path::to_path_buf,
        );
        skillpkg_with(&binary, temp, &cache_a, project, &["install"]);
    };

    // (b) Cold `add --git`: a new project and an empty cache each time.
    // Every run that writes gets folders of its own (see `Numbered`).
    let cold_project = Numbered::new(temp.join("cold"));
    let cold_cache = Numbered::new(temp.join("cold-cache"));
    let fresh_cold = || {
        registry_project(&cold_project.advance(), &url, 0);
        cold_cache.advance();
    };
    let npx_cold_project = Numbered::new(temp.join("npx-cold"));
    let npx_warm_project = Numbered::new(temp.join("npx-warm"));

    // (c) Warm `install --locked` of every package into a fresh checkout.
    let cache_c = temp.join("cache-c");
    let all = temp.join("all");
    registry_project(&all, &url, SKILLS);
    skillpkg(temp, &cache_c, &all, &["install"]);
    let root = all.join(".agents/skills");
    let (bytes, files) = size_of(&root);
    let checkout = Numbered::new(temp.join("checkout"));
    let prepare = || fresh_checkout(&checkout.advance(), &all);
    let copy_target = Numbered::new(temp.join("copy"));
    let hashed_target = Numbered::new(temp.join("hashed"));
    let base_cold_project = Numbered::new(temp.join("before-cold"));
    let base_cold_cache = Numbered::new(temp.join("before-cold-cache"));
    let base_checkout = Numbered::new(temp.join("before-checkout"));

    let (registry16, git16) = (registry16.as_path(), git16.as_path());
    let cache_c = cache_c.as_path();
    let mut cases = vec![
        Case::new(|| {}, || noop(registry16, None)),
        Case::new(|| {}, || noop(git16, None)),
        Case::new(fresh_cold, || {
            skillpkg(
                temp,
                &cold_cache.current(),
                &cold_project.current(),
                &["add", "--git", repo_arg],
            )
        }),
        Case::new(
            || {
                copy_target.advance();
            },
            || copy_tree(&root, &copy_target.current()),
        ),
        Case::new(prepare, || {
            skillpkg(temp, cache_c, &checkout.current(), &["install", "--locked"])
        }),
        Case::new(
            || {
                hashed_target.advance();
            },
            || hash_and_copy(&root, &hashed_target.current()),
        ),
    ];
    if let Some(cli) = cli {
        cases.push(Case::new(
            || std::fs::create_dir_all(npx_cold_project.advance()).unwrap(),
            || npx_skills_add(cli, temp, &npx_cold_project.current(), &repo, GIT_SKILLS),
        ));
        cases.push(Case::new(
            || std::fs::create_dir_all(npx_warm_project.advance()).unwrap(),
            || npx_skills_add(cli, temp, &npx_warm_project.current(), &sources, SKILLS),
        ));
    }
    if let Some(base) = base {
        cases.push(Case::new(|| {}, move || noop(registry16, Some(base))));
        cases.push(Case::new(|| {}, move || noop(git16, Some(base))));
        cases.push(Case::new(
            || {
                registry_project(&base_cold_project.advance(), &url, 0);
                base_cold_cache.advance();
            },
            || {
                skillpkg_with(
                    base,
                    temp,
                    &base_cold_cache.current(),
                    &base_cold_project.current(),
                    &["add", "--git", repo_arg],
                )
            },
        ));
        cases.push(Case::new(
            || fresh_checkout(&base_checkout.advance(), &all),
            || {
                skillpkg_with(
                    base,
                    temp,
                    cache_c,
                    &base_checkout.current(),
                    &["install", "--locked"],
                )
            },
        ));
    }
    let times = time_interleaved(&mut cases);
    let (noop_registry, noop_git, cold, copy, warm, hashed) =
        (times[0], times[1], times[2], times[3], times[4], times[5]);
    let (npx_cold, npx_warm) = match npx {
        true => (Some(times[6]), Some(times[7])),
        false => (None, None),
    };
    let before = |i: usize| base.map(|_| times[6 + 2 * usize::from(npx) + i]);
    let row = |label: &str, time: Duration| Row {
        label: label.to_string(),
        time,
    };

    let baseline_row = |label: &str, time: Option<Duration>| time.map(|t| row(label, t));
    let mut a_rows = vec![row(
        &format!("`install`, {GIT_SKILLS} git skills"),
        noop_git,
    )];
    a_rows.extend(baseline_row(
        "the same, before (`BENCH_BASELINE`)",
        before(1),
    ));
    table(
        &format!("(a) no-op `install`, {GIT_SKILLS} skills in place"),
        &row(&format!("{GIT_SKILLS} registry skills"), noop_registry),
        &a_rows,
    );
    if let Some(registry_before) = before(0) {
        println!(
            "Before: {GIT_SKILLS} registry skills {}, git {}.\n",
            ms(registry_before),
            ms(before(1).unwrap())
        );
    }
    let mut b_rows = Vec::new();
    b_rows.extend(npx_cold.map(|t| row("`npx skills add <path> --skill '*'` (skills 1.7.4)", t)));
    b_rows.extend(baseline_row("`skillpkg add --git`, before", before(2)));
    table(
        &format!("(b) cold `add --git` of a local {GIT_SKILLS}-skill repository"),
        &row("`skillpkg add --git <path>`", cold),
        &b_rows,
    );
    let mut c_rows = vec![
        row(
            "read + sha256 + write of the same trees (one thread, no process start)",
            hashed,
        ),
        row("`skillpkg install --locked`, warm cache", warm),
    ];
    c_rows.extend(npx_warm.map(|t| row("`npx skills add <folder> --skill '*'` (skills 1.7.4)", t)));
    c_rows.extend(baseline_row(
        "`skillpkg install --locked`, before",
        before(3),
    ));
    table(
        &format!(
            "(c) {SKILLS} registry skills ({files} files, {:.1} MB) into a fresh checkout",
            bytes as f64 / 1e6
        ),
        &row("`cp -r` of the installed trees", copy),
        &c_rows,
    );
    println!("Goals:");
    println!(
        "- (a) git no-op / registry no-op: {} (goal: at most 2×)",
        ratio(noop_git, noop_registry)
    );
    match npx_cold {
        Some(npx) => println!(
            "- (b) cold `add --git` / npx skills add: {} (goal: at most 1×)",
            ratio(cold, npx)
        ),
        None => println!("- (b) not measured: SKILLS_CLI is not set"),
    }
    println!(
        "- (c) warm `install --locked` / `cp -r`: {} (goal: at most 1×); / read + sha256 + write: {}",
        ratio(warm, copy),
        ratio(warm, hashed)
    );
    if let Some(npx) = npx_warm {
        println!(
            "- (c) npx skills add / warm `install --locked`: {} faster (goal: at least 10×)",
            ratio(npx, warm).trim_end_matches('×').to_string() + "×"
        );
    }
}
