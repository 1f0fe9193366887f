//! Benchmark: `skillpkg install` of 200 packages from a static HTTP index
//! of 20,000 packages on loopback, against the floor of fetching exactly
//! the same files with parallel plain GETs (and with `--no-scan`, for the
//! scanner's share); then a warm `install --locked`
//! (and `--frozen`, and `--link-mode hardlink`) of the same 200 skills,
//! against `cp -r` of the trees.
//!
//! Run with `cargo bench --bench install`; it prints a Markdown table for
//! BENCHMARKS.md. With `BENCH_KEEP=1` the index, projects and caches are
//! left in the temporary folder it names, for profiling one run by hand.

#![allow(clippy::print_stdout, clippy::print_stderr)] // tests say when they skip; benches print their tables

#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../tests/it/server.rs"]
mod server;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{
    Case, RUNS, copy_tree, fresh_checkout, fresh_dir, publish_bench, skillpkg, time_interleaved,
    write_bench_skill,
};

use skillpkg::index::local::IndexDir;
use skillpkg::index::{IndexEntry, PackageName};

const INDEX_PACKAGES: usize = 20_000;
const WANTED: usize = 200;
/// Requests in flight in the floor, as in skillpkg.
const CONCURRENCY: usize = 16;

/// A folder index of `INDEX_PACKAGES` packages of org `bench`: the first
/// `WANTED` are real signed packages (each a SKILL.md and 20 reference
/// files; `pkg-i` depends on `pkg-(i/2)`), the rest entry files only, which
/// a sparse client never reads.
fn build_index(temp: &Path) -> PathBuf {
    let keys = temp.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let generated = skillpkg::store::signing::generate_keys(&keys, false).unwrap();
    let index = temp.join("index");
    IndexDir::init(&index, Some(("bench", &generated.public_key))).unwrap();
    for i in 0..WANTED {
        let (dir, dependencies) = write_bench_skill(&temp.join("src"), i);
        publish_bench(
            &dir,
            &index,
            &generated.secret_key_file,
            dependencies.as_deref(),
        );
    }
    let local = IndexDir::open(&index).unwrap();
    for i in WANTED..INDEX_PACKAGES {
        let package: PackageName = format!("bench/pkg-{i}").parse().unwrap();
        let entry = IndexEntry {
            name: package.to_string(),
            vers: "1.0.0".into(),
            cksum: format!("{i:064x}"),
            deps: Vec::new(),
            desc: format!("Benchmark package {i}. Use when measuring installs."),
            sig: String::new(),
            sigstore: None,
            yanked: false,
            size: 60_000,
            invalid: Vec::new(),
            ..Default::default()
        };
        let path = local.root().join(package.entry_path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("{}\n", entry.to_line())).unwrap();
    }
    index
}

/// Fetches `urls` with `CONCURRENCY` plain GETs in flight; returns the bytes.
fn plain_gets(urls: &[String]) -> usize {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        // reqwest is built without a TLS provider of its own (net/tls.rs).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::new();
        let limit = Arc::new(tokio::sync::Semaphore::new(CONCURRENCY));
        let mut tasks = tokio::task::JoinSet::new();
        for url in urls {
            let (client, limit, url) = (client.clone(), limit.clone(), url.clone());
            tasks.spawn(async move {
                let _permit = limit.acquire_owned().await.unwrap();
                let response = client.get(&url).send().await.unwrap();
                assert!(response.status().is_success(), "{url}");
                response.bytes().await.unwrap().len()
            });
        }
        let mut total = 0;
        while let Some(bytes) = tasks.join_next().await {
            total += bytes.unwrap();
        }
        total
    })
}

fn main() {
    // `cargo test --all-targets` runs this binary without `--bench`: skip.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    // BENCH_KEEP=1 keeps the folders, to profile a single run by hand.
    let temp = match std::env::var_os("BENCH_KEEP") {
        Some(_) => temp.keep(),
        None => temp.path().to_path_buf(),
    };
    let temp = temp.as_path();
    let built = Instant::now();
    let index = build_index(temp);
    eprintln!(
        "index of {INDEX_PACKAGES} built in {:?} under {}",
        built.elapsed(),
        temp.display()
    );
    let server = server::StaticServer::start(&index);
    let url = server.url();

    let mut manifest = format!("[registries]\ndefault = {{ index = \"{url}\" }}\n\n[skills]\n");
    for i in 0..WANTED {
        manifest.push_str(&format!("\"bench/pkg-{i}\" = \"1\"\n"));
    }
    let project = temp.join("project");
    let cache = temp.join("cache");
    let fresh_project = || {
        fresh_dir(&project);
        fresh_dir(&cache);
        std::fs::write(project.join("skills.toml"), &manifest).unwrap();
    };
    // A first install tells which files a sparse client needs.
    fresh_project();
    skillpkg(temp, &cache, &project, &["install"]);
    let mut fetched: Vec<String> = server.log().into_iter().map(|(path, _)| path).collect();
    fetched.sort();
    fetched.dedup();
    assert_eq!(
        fetched.len(),
        1 + 2 * WANTED,
        "only the needed files: {fetched:?}"
    );
    let urls: Vec<String> = fetched
        .iter()
        .map(|path| format!("{url}{}", path.trim_start_matches('/')))
        .collect();
    let bytes = plain_gets(&urls);

    // Warm runs install into a second checkout with the project's cache
    // full; the cold run starts from nothing each time.
    let warm_cache = temp.join("warm-cache");
    let warm_project = temp.join("warm-project");
    copy_tree(&cache, &warm_cache);
    copy_tree(&project, &warm_project);
    let root = warm_project.join(".agents/skills");
    let checkout = temp.join("checkout");
    let prepare = || fresh_checkout(&checkout, &warm_project);
    let copy_target = temp.join("copy");
    let mut cases = [
        Case::new(|| {}, || assert_eq!(plain_gets(&urls), bytes)),
        Case::new(fresh_project, || {
            skillpkg(temp, &cache, &project, &["install"])
        }),
        Case::new(fresh_project, || {
            skillpkg(temp, &cache, &project, &["install", "--no-scan"])
        }),
        Case::new(
            || {
                if copy_target.exists() {
                    std::fs::remove_dir_all(&copy_target).unwrap();
                }
            },
            || {
                let status = Command::new("cp")
                    .arg("-r")
                    .arg(&root)
                    .arg(&copy_target)
                    .status()
                    .unwrap();
                assert!(status.success());
            },
        ),
        Case::new(prepare, || {
            skillpkg(temp, &warm_cache, &checkout, &["install", "--frozen"])
        }),
        Case::new(prepare, || {
            skillpkg(temp, &warm_cache, &checkout, &["install", "--locked"])
        }),
        Case::new(prepare, || {
            skillpkg(
                temp,
                &warm_cache,
                &checkout,
                &["install", "--locked", "--link-mode", "hardlink"],
            )
        }),
    ];
    let timed = time_interleaved(&mut cases);
    print_tables(&timed, urls.len(), bytes);
}

/// The Markdown tables of the cases' medians, in the order `main` runs
/// them.
fn print_tables(timed: &[Duration], urls: usize, bytes: usize) {
    let [floor, cold, unscanned, copy, frozen, locked, linked] = timed[..] else {
        unreachable!("seven cases")
    };
    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    let ratio =
        |d: Duration, floor: Duration| format!("{:.1}×", d.as_secs_f64() / floor.as_secs_f64());
    println!(
        "| {WANTED} of {INDEX_PACKAGES} packages over loopback HTTP (median of {RUNS}) | time | vs floor |"
    );
    println!("|---|---:|---:|");
    println!(
        "| floor: {} plain GETs of the same files ({} KB), {CONCURRENCY} in flight | {} | 1.0× |",
        urls,
        bytes / 1024,
        ms(floor)
    );
    println!(
        "| `skillpkg install`, cold cache: resolve, fetch, verify, extract, lock | {} | {} |",
        ms(cold),
        ratio(cold, floor)
    );
    println!(
        "| `skillpkg install --no-scan`, cold cache: the same without the scanner's gate | {} | {} |",
        ms(unscanned),
        ratio(unscanned, floor)
    );
    println!(
        "| floor with the files written: the GETs plus `cp -r` of the trees | {} | {} |",
        ms(floor + copy),
        ratio(floor + copy, floor)
    );
    println!();
    println!(
        "Cold install against the GETs plus `cp -r`: {} ({} without the scanner).",
        ratio(cold, floor + copy),
        ratio(unscanned, floor + copy)
    );
    println!();
    println!(
        "| warm: the same {WANTED} skills into a fresh checkout (median of {RUNS}) | time | vs floor |"
    );
    println!("|---|---:|---:|");
    println!(
        "| floor: `cp -r` of the installed trees | {} | 1.0× |",
        ms(copy)
    );
    println!(
        "| `skillpkg install --frozen` (cache only) | {} | {} |",
        ms(frozen),
        ratio(frozen, copy)
    );
    println!(
        "| `skillpkg install --locked` (`config.json` revalidated: one request, answered 304; the entry files the lock settles are read from the cache; files copied, or cloned where the file system can) | {} | {} |",
        ms(locked),
        ratio(locked, copy)
    );
    println!(
        "| `skillpkg install --locked --link-mode hardlink` (the cache's files linked) | {} | {} |",
        ms(linked),
        ratio(linked, copy)
    );
}
