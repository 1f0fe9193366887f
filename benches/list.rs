//! Benchmark: `skillpkg list --json` and `skillpkg exec --dry-run` over
//! 10,000 generated skills, against the physical floor (a plain loop that
//! reads only the frontmatter bytes of the same files), the cases
//! interleaved so their ratios come from one run.
//!
//! Run with `cargo bench --bench list`; it prints a Markdown table for
//! BENCHMARKS.md. `BENCH_SKILLS` changes the number of skills;
//! `BENCH_BASELINE=<a skillpkg binary>` adds that binary's rows to the
//! same rounds; `BENCH_REFERENCE=1` also times the reference
//! `agentskills to-prompt` (about 100 times slower).

#![allow(clippy::print_stdout, clippy::print_stderr)] // tests say when they skip; benches print their tables

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

fn generate(root: &Path, count: usize) -> Vec<PathBuf> {
    (0..count)
        .map(|i| {
            let name = format!("skill-{i:05}");
            let dir = root.join(&name);
            std::fs::create_dir_all(&dir).unwrap();
            let body = "Step by step instructions for the agent.\n".repeat(40);
            std::fs::write(
                dir.join("SKILL.md"),
                format!(
                    "---\nname: {name}\ndescription: Generated skill number {i} for benchmarking discovery. Use when measuring how fast skills are listed.\nlicense: MIT\nmetadata:\n  author: bench\n  version: \"1.{i}.0\"\n---\n\n# {name}\n\n{body}"
                ),
            )
            .unwrap();
            dir
        })
        .collect()
}

/// The floor: open each SKILL.md and read lines up to the closing `---`.
fn read_frontmatters(dirs: &[PathBuf]) -> usize {
    let mut bytes = 0;
    let mut line = String::new();
    for dir in dirs {
        let mut reader = BufReader::new(std::fs::File::open(dir.join("SKILL.md")).unwrap());
        let mut delimiters = 0;
        while delimiters < 2 {
            line.clear();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
            bytes += line.len();
            if line.trim_end() == "---" {
                delimiters += 1;
            }
        }
    }
    bytes
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time(mut f: impl FnMut()) -> Duration {
    f(); // warm the page cache and the builtin root
    median(
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

/// A named case: a label for the table and what to time.
type Case<'a> = (String, Box<dyn FnMut() + 'a>);

/// Times `cases` in interleaved rounds (one warm-up round, then [`RUNS`]),
/// so that a slow spell of the machine falls on every case alike; the
/// median of each.
fn time_interleaved(cases: &mut [Case]) -> Vec<Duration> {
    let mut samples = vec![Vec::new(); cases.len()];
    for round in 0..=RUNS {
        for ((_, run), samples) in cases.iter_mut().zip(&mut samples) {
            let start = Instant::now();
            run();
            if round > 0 {
                samples.push(start.elapsed());
            }
        }
    }
    samples.into_iter().map(median).collect()
}

/// Runs `binary -q <args>` over the generated root; returns its stdout.
fn skillpkg(binary: &Path, temp: &Path, root: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new(binary)
        .arg("-q")
        .args(args)
        .current_dir(temp)
        .env("HOME", temp.join("home"))
        .env("SKILLPKG_USER_ROOT", root)
        .env("SKILLPKG_CACHE_DIR", temp.join("cache"))
        .env("SKILLPKG_CONFIG_DIR", temp.join("config"))
        .env("SKILLPKG_DATA_DIR", temp.join("data"))
        .env_remove("SKILLPKG_MODEL")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A task no generated skill matches: the catalog shares its budget
/// evenly among all of them.
const TASK_NO_MATCH: &str = "summarize report.pdf";
/// A task every generated skill matches: the catalog ranks all of them.
const TASK_ALL_MATCH: &str = "measure how fast skills are listed";

fn main() {
    // `cargo test --all-targets` runs this binary without `--bench`: skip.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let count: usize = std::env::var("BENCH_SKILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let temp = tempfile::tempdir().unwrap();
    let temp = temp.path();
    let root = temp.join("skills");
    let dirs = generate(&root, count);
    std::fs::create_dir_all(temp.join("home")).unwrap();
    // skillpkg caches no frontmatter of a file changed in the last two
    // seconds: let the generated files settle, as a real root has.
    std::thread::sleep(Duration::from_secs(3));

    let this = PathBuf::from(env!("CARGO_BIN_EXE_skillpkg"));
    let baseline = std::env::var_os("BENCH_BASELINE").map(PathBuf::from);
    let binaries: Vec<(&str, &Path)> = std::iter::once(("", this.as_path()))
        .chain(baseline.as_deref().map(|b| ("before: ", b)))
        .collect();

    let cache_file = temp.join("cache").join(skillpkg::skill::cache::FILE_NAME);
    let mut cases: Vec<Case> = vec![(
        "floor: read only the frontmatter bytes, one thread".to_string(),
        Box::new(|| assert!(read_frontmatters(&dirs) > 0)),
    )];
    for &(label, binary) in &binaries {
        let root = root.as_path();
        if label.is_empty() {
            let cache_file = cache_file.as_path();
            cases.push((
                "`skillpkg list --json`, frontmatter cache removed first (cold)".to_string(),
                Box::new(move || {
                    let _ = std::fs::remove_file(cache_file);
                    assert!(skillpkg(binary, temp, root, &["list", "--json"]).len() > count * 100);
                    assert!(cache_file.exists());
                }),
            ));
        }
        cases.push((
            format!("{label}`skillpkg list --json`"),
            Box::new(move || {
                assert!(skillpkg(binary, temp, root, &["list", "--json"]).len() > count * 100)
            }),
        ));
        for (what, task) in [
            ("a task no skill matches", TASK_NO_MATCH),
            ("a task every skill matches", TASK_ALL_MATCH),
        ] {
            cases.push((
                format!("{label}`skillpkg exec --dry-run`, {what}"),
                Box::new(move || {
                    let out = skillpkg(binary, temp, root, &["exec", "--dry-run", task]);
                    assert!(String::from_utf8_lossy(&out).contains("<available_skills>"));
                }),
            ));
        }
    }
    let times = time_interleaved(&mut cases);
    let floor = times[0];
    let list = times[2];

    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    let ratio = |d: Duration, of: Duration| format!("{:.2}×", d.as_secs_f64() / of.as_secs_f64());
    println!(
        "| {count} skills (median of {RUNS}, interleaved, warm cache) | time | vs floor | vs `list --json` |"
    );
    println!("|---|---:|---:|---:|");
    let mut list_of_binary = list;
    for ((name, _), &time) in cases.iter().zip(&times) {
        if name.ends_with("list --json`") {
            list_of_binary = time;
        }
        let vs_list = match name.contains("exec") {
            true => ratio(time, list_of_binary),
            false => String::new(),
        };
        println!(
            "| {name} | {} | {} | {vs_list} |",
            ms(time),
            ratio(time, floor)
        );
    }

    if std::env::var_os("BENCH_REFERENCE").is_none() {
        return;
    }
    // The reference implementation takes about 100 times as long: only
    // on request, and not interleaved.
    let reference = time(|| {
        let out = Command::new("agentskills")
            .arg("to-prompt")
            .args(&dirs)
            .output()
            .unwrap();
        assert!(out.status.success());
    });
    println!(
        "| `agentskills to-prompt` (skills-ref 0.1.1) | {} | {} | |",
        ms(reference),
        ratio(reference, floor)
    );
    println!();
    println!(
        "skillpkg's `list --json` is {:.1}× faster than the reference.",
        reference.as_secs_f64() / list.as_secs_f64()
    );
}
