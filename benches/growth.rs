//! How each operation's cost grows with its input: for each row, three
//! sizes, the median wall time of 5 runs, the peak resident memory, and
//! the growth exponent `log(t2/t1)/log(n2/n1)` between consecutive sizes
//! (1.0 is linear). Figures and the machine go in BENCHMARKS.md.
//!
//! `cargo bench --bench growth` runs every row; `BENCH_ROWS=F1,F3` picks
//! some; `BENCH_SCALE=0.1` shrinks every size for a quick look. Peak
//! memory comes from `/usr/bin/time -f %M` (Debian's `time` package);
//! without it the column says `-`.
//!
//! - F1: `list --json` over N skills, half in the user root and half in
//!   the project's, with a warm frontmatter cache.
//! - F2: no-op `install`, and `install --locked`, of a project with L
//!   lock entries from a folder index.
//! - F3: an `exec` session of T tool calls (a scripted model listing a
//!   folder each turn).

#![allow(clippy::print_stdout, clippy::print_stderr)] // benches print their tables

#[allow(dead_code)]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{RUNS, median, publish_bench};

/// One operation at one size.
struct Measured {
    size: usize,
    time: Duration,
    peak_kib: Option<u64>,
}

/// A private home for skillpkg under `temp`.
fn home(temp: &Path) -> Vec<(&'static str, PathBuf)> {
    vec![
        ("HOME", temp.join("home")),
        ("SKILLPKG_CACHE_DIR", temp.join("cache")),
        ("SKILLPKG_CONFIG_DIR", temp.join("config")),
        ("SKILLPKG_DATA_DIR", temp.join("data")),
        ("SKILLPKG_USER_ROOT", temp.join("user")),
    ]
}

/// Runs `skillpkg -q <args>` in `dir` with the home of `temp`, under
/// `/usr/bin/time` when it is there; returns the wall time and the peak
/// resident memory. Whether it succeeded is `ok`'s to judge.
fn run(temp: &Path, dir: &Path, args: &[&str], ok: fn(bool) -> bool) -> (Duration, Option<u64>) {
    let binary = env!("CARGO_BIN_EXE_skillpkg");
    let timer = Path::new("/usr/bin/time");
    let report = temp.join("peak.txt");
    let mut command = match timer.exists() {
        true => {
            let mut c = Command::new(timer);
            c.args(["-f", "%M", "-o"]).arg(&report).arg(binary);
            c
        }
        false => Command::new(binary),
    };
    command
        .arg("-q")
        .args(args)
        .current_dir(dir)
        .envs(home(temp))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let out = command.output().unwrap();
    let elapsed = start.elapsed();
    assert!(
        ok(out.status.success()),
        "skillpkg {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let peak = std::fs::read_to_string(&report)
        .ok()
        .and_then(|text| text.lines().last()?.trim().parse().ok());
    (elapsed, peak)
}

/// The median of `RUNS` runs after one warm-up, and the largest peak.
fn measure(size: usize, mut once: impl FnMut() -> (Duration, Option<u64>)) -> Measured {
    once();
    let mut times = Vec::new();
    let mut peak = None;
    for _ in 0..RUNS {
        let (time, kib) = once();
        times.push(time);
        peak = peak.max(kib);
    }
    Measured {
        size,
        time: median(times),
        peak_kib: peak,
    }
}

fn succeeded(ok: bool) -> bool {
    ok
}

fn either(_: bool) -> bool {
    true
}

/// Writes `count` skills named `prefix-i` into `root`, each a SKILL.md of
/// about 2 KB (a 240-byte frontmatter and a body).
fn write_skills(root: &Path, prefix: &str, count: usize) {
    let body = "Instructions that discovery never reads.\n".repeat(45);
    for i in 0..count {
        let dir = root.join(format!("{prefix}-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {prefix}-{i}\ndescription: Skill {i} of the growth benchmark, which measures how listing grows with the number of skills. Use when measuring growth.\nlicense: MIT\nmetadata:\n  owner: bench\n---\n{body}"
            ),
        )
        .unwrap();
    }
}

/// F1: `list --json` over `n` skills across the user and project roots.
fn listing(temp: &Path, n: usize) -> Measured {
    let temp = temp.join(format!("f1-{n}"));
    let project = temp.join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("skills.toml"), "").unwrap();
    write_skills(&temp.join("user"), "user", n / 2);
    write_skills(&project.join(".agents/skills"), "project", n - n / 2);
    // Files changed in the last two seconds are not cached: let them settle.
    std::thread::sleep(Duration::from_secs(3));
    let measured = measure(n, || run(&temp, &project, &["list", "--json"], succeeded));
    std::fs::remove_dir_all(&temp).unwrap();
    measured
}

/// A folder index of `count` packages `bench/pkg-i` (a SKILL.md each,
/// no dependencies) and a project that wants them all, installed.
fn installed_project(temp: &Path, count: usize) -> PathBuf {
    let index = temp.join("index");
    let keys = temp.join("keys");
    run(
        temp,
        temp,
        &["keygen", "--no-password", "--out", keys.to_str().unwrap()],
        succeeded,
    );
    let public = keys.join("skillpkg.pub");
    run(
        temp,
        temp,
        &[
            "index",
            "init",
            index.to_str().unwrap(),
            "--org",
            "bench",
            "--key",
            public.to_str().unwrap(),
        ],
        succeeded,
    );
    let src = temp.join("src");
    for i in 0..count {
        let dir = src.join(format!("pkg-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: pkg-{i}\ndescription: Package {i}. Use when measuring installs.\n---\nBody.\n"),
        )
        .unwrap();
        publish_bench(&dir, &index, &keys.join("skillpkg.key"), None);
    }
    let project = temp.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let mut manifest = format!(
        "[registries]\ndefault = {{ index = {:?} }}\n\n[skills]\n",
        index.display().to_string()
    );
    for i in 0..count {
        manifest.push_str(&format!("\"bench/pkg-{i}\" = \"1\"\n"));
    }
    std::fs::write(project.join("skills.toml"), manifest).unwrap();
    run(temp, &project, &["install"], succeeded);
    project
}

/// F2: a no-op `install` and `install --locked` with `n` lock entries.
fn installs(temp: &Path, n: usize) -> (Measured, Measured) {
    let temp = temp.join(format!("f2-{n}"));
    std::fs::create_dir_all(&temp).unwrap();
    let project = installed_project(&temp, n);
    let again = measure(n, || run(&temp, &project, &["install"], succeeded));
    let locked = measure(n, || {
        run(&temp, &project, &["install", "--locked"], succeeded)
    });
    std::fs::remove_dir_all(&temp).unwrap();
    (again, locked)
}

/// F3: an `exec` session of `n` tool calls.
fn session(temp: &Path, n: usize) -> Measured {
    let temp = temp.join(format!("f3-{n}"));
    let project = temp.join("project");
    std::fs::create_dir_all(project.join("data")).unwrap();
    std::fs::write(project.join("skills.toml"), "").unwrap();
    let model = temp.join("model.json");
    std::fs::write(
        &model,
        r#"{"repeat_last": true, "turns": [{"tool_calls": [{"name": "list_dir", "input": {"path": "data"}}]}]}"#,
    )
    .unwrap();
    let model = format!("scripted:{}", model.display());
    let calls = n.to_string();
    let turns = (n + 1).to_string();
    let args = [
        "exec",
        "--model",
        &model,
        "--max-tool-calls",
        &calls,
        "--max-turns",
        &turns,
        "--max-tokens",
        "1000000000000",
        "list the data",
    ];
    // The run ends at its tool-call budget, which is a failure exit.
    let measured = measure(n, || run(&temp, &project, &args, either));
    std::fs::remove_dir_all(&temp).unwrap();
    measured
}

/// Prints one row's table lines: each size with its time, peak and the
/// exponent from the size before.
fn report(row: &str, what: &str, unit: &str, measured: &[Measured]) {
    for (i, m) in measured.iter().enumerate() {
        let exponent = match i {
            0 => String::new(),
            _ => {
                let before = &measured[i - 1];
                let ratio = m.time.as_secs_f64() / before.time.as_secs_f64();
                format!(
                    "{:.2}",
                    ratio.ln() / (m.size as f64 / before.size as f64).ln()
                )
            }
        };
        let peak = m
            .peak_kib
            .map_or("-".to_string(), |kib| format!("{:.0}", kib as f64 / 1024.0));
        println!(
            "| {row} | {what} | {} {unit} | {:.1} ms | {peak} MiB | {exponent} |",
            m.size,
            m.time.as_secs_f64() * 1e3
        );
    }
}

fn sizes(base: [usize; 3]) -> Vec<usize> {
    let scale: f64 = std::env::var("BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    base.iter()
        .map(|&n| ((n as f64 * scale) as usize).max(2))
        .collect()
}

fn main() {
    // `cargo test --all-targets` runs this binary without `--bench`: skip.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let rows = std::env::var("BENCH_ROWS").unwrap_or_else(|_| "F1,F2,F3".into());
    let wanted = |row: &str| rows.split(',').any(|r| r.trim() == row);
    let temp = tempfile::tempdir().unwrap();
    let temp = temp.path();
    println!("| row | operation | size | median of {RUNS} | peak RSS | exponent |");
    println!("|---|---|---:|---:|---:|---:|");
    if wanted("F1") {
        let measured: Vec<Measured> = sizes([50_000, 100_000, 200_000])
            .into_iter()
            .map(|n| listing(temp, n))
            .collect();
        report("F1", "`list --json`, warm", "skills", &measured);
    }
    if wanted("F2") {
        let (again, locked): (Vec<Measured>, Vec<Measured>) = sizes([1_000, 2_500, 5_000])
            .into_iter()
            .map(|n| installs(temp, n))
            .unzip();
        report("F2", "no-op `install`", "lock entries", &again);
        report("F2", "`install --locked`", "lock entries", &locked);
    }
    if wanted("F3") {
        let measured: Vec<Measured> = sizes([300, 1_000, 3_000])
            .into_iter()
            .map(|n| session(temp, n))
            .collect();
        report("F3", "`exec` session", "tool calls", &measured);
    }
}
