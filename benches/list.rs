//! Benchmark: `skillpkg list --json` over 10,000 generated skills, against
//! the physical floor (a plain loop that reads only the frontmatter bytes of
//! the same files) and against the reference `agentskills to-prompt`.
//!
//! Run with `cargo bench --bench list`; it prints a Markdown table for
//! BENCHMARKS.md. `BENCH_SKILLS` changes the number of skills.

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
    let root = temp.path().join("skills");
    let dirs = generate(&root, count);
    let home = temp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();

    let floor = time(|| {
        assert!(read_frontmatters(&dirs) > 0);
    });

    let skillpkg = env!("CARGO_BIN_EXE_skillpkg");
    let list = time(|| {
        let out = Command::new(skillpkg)
            .args(["-q", "list", "--json"])
            .current_dir(temp.path())
            .env("HOME", &home)
            .env("SKILLPKG_USER_ROOT", &root)
            .env("SKILLPKG_CACHE_DIR", temp.path().join("cache"))
            .env("SKILLPKG_CONFIG_DIR", temp.path().join("config"))
            .env("SKILLPKG_DATA_DIR", temp.path().join("data"))
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(out.stdout.len() > count * 100);
    });

    let reference = Command::new("agentskills")
        .arg("--version")
        .output()
        .is_ok()
        .then(|| {
            time(|| {
                let out = Command::new("agentskills")
                    .arg("to-prompt")
                    .args(&dirs)
                    .output()
                    .unwrap();
                assert!(out.status.success());
            })
        });

    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    let ratio = |d: Duration| format!("{:.1}×", d.as_secs_f64() / floor.as_secs_f64());
    println!("| {count} skills (median of {RUNS}, warm cache) | time | vs floor |");
    println!("|---|---:|---:|");
    println!(
        "| floor: read only the frontmatter bytes, one thread | {} | 1.0× |",
        ms(floor)
    );
    println!(
        "| `skillpkg list --json` (whole process) | {} | {} |",
        ms(list),
        ratio(list)
    );
    match reference {
        Some(reference) => {
            println!(
                "| `agentskills to-prompt` (skills-ref 0.1.1) | {} | {} |",
                ms(reference),
                ratio(reference)
            );
            println!();
            println!(
                "skillpkg is {:.1}× faster than the reference.",
                reference.as_secs_f64() / list.as_secs_f64()
            );
        }
        None => println!(
            "| `agentskills to-prompt` | not installed (pip install skills-ref==0.1.1) | |"
        ),
    }
}
