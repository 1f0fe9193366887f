//! Benchmark: `skillpkg install` of 200 signed packages from an OCI
//! registry namespace on loopback (the CNCF distribution registry,
//! `docker-registry`) against the same 200 from a static HTTP index on
//! loopback; cold (empty cache) and warm (`install --locked` into a fresh
//! checkout, the cache full).
//!
//! Run with `cargo bench --bench oci`; it prints a Markdown table for
//! BENCHMARKS.md. It needs `docker-registry` (apt-get install
//! docker-registry) and says so when it is missing.

#![allow(clippy::print_stdout, clippy::print_stderr)] // benches print their tables

#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../tests/it/common/registry.rs"]
mod registry;
#[allow(dead_code)]
#[path = "../tests/it/server.rs"]
mod server;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{
    Case, RUNS, bench_dirs, fresh_checkout, fresh_dir, skillpkg, time_interleaved,
    write_bench_skill,
};

const WANTED: usize = 200;

/// Whether `program` is on PATH; says so when it is not.
fn has_program(program: &str, package: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()));
    if !found {
        eprintln!("SKIPPED: {program} is not installed (apt-get install {package})");
    }
    found
}

/// Polls `ready` until it holds (30 s at most).
fn wait_until(mut ready: impl FnMut() -> bool, what: impl FnOnce() -> String) {
    let started = Instant::now();
    while !ready() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "waited 30 s in vain: {}",
            what()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The 200 skills (`pkg-i` depends on `pkg-(i/2)`, a SKILL.md and 20
/// reference files of about 5 KB each), published signed into a folder
/// index and into the OCI namespace `index`.
fn publish_all(temp: &Path, oci: &str) -> PathBuf {
    let keys = temp.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let generated = skillpkg::store::signing::generate_keys(&keys, false).unwrap();
    let folder = temp.join("index");
    skillpkg::index::local::IndexDir::init(&folder, Some(("bench", &generated.public_key)))
        .unwrap();
    let dirs = bench_dirs(&temp.join("publish-cache"));
    for i in 0..WANTED {
        let (dir, dependencies) = write_bench_skill(&temp.join("src"), i);
        for index in [folder.to_str().unwrap(), oci] {
            skillpkg::ops::publish::publish(
                &skillpkg::ops::publish::PublishRequest {
                    skill_dir: &dir,
                    index,
                    org: "bench",
                    key: Some(&generated.secret_key_file),
                    sigstore_bundle: None,
                    version: Some("1.0.0"),
                    dependencies: dependencies.as_deref(),
                    allow_invalid: false,
                    limits: skillpkg::store::limits::Limits::default(),
                    channel: None,
                    upstream: None,
                },
                &dirs,
            )
            .unwrap();
        }
    }
    folder
}

fn main() {
    // `cargo test --all-targets` runs this binary without `--bench`: skip.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let Some(registry) = registry::Registry::start() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let temp = temp.path();
    let oci = format!("oci://{}/bench", registry.host());
    let published = Instant::now();
    let folder = publish_all(temp, &oci);
    eprintln!(
        "{WANTED} packages published to both indexes in {:?}",
        published.elapsed()
    );
    let server = server::StaticServer::start(&folder);
    let http = server.url();

    let project_for = |name: &str, index: &str| {
        let mut manifest =
            format!("[registries]\ndefault = {{ index = \"{index}\" }}\n\n[skills]\n");
        for i in 0..WANTED {
            manifest.push_str(&format!("\"bench/pkg-{i}\" = \"1\"\n"));
        }
        (
            temp.join(name),
            temp.join(format!("{name}-cache")),
            manifest,
        )
    };
    let (http_project, http_cache, http_manifest) = project_for("http", &http);
    let (oci_project, oci_cache, oci_manifest) = project_for("oci", &oci);
    let fresh = |project: &Path, cache: &Path, manifest: &str| {
        fresh_dir(project);
        fresh_dir(cache);
        std::fs::write(project.join("skills.toml"), manifest).unwrap();
    };
    // Each warm run installs into a fresh checkout with the cache a cold
    // run filled.
    let http_checkout = temp.join("http-checkout");
    let oci_checkout = temp.join("oci-checkout");
    let mut cases = [
        Case::new(
            || fresh(&http_project, &http_cache, &http_manifest),
            || skillpkg(temp, &http_cache, &http_project, &["install"]),
        ),
        Case::new(
            || fresh(&oci_project, &oci_cache, &oci_manifest),
            || skillpkg(temp, &oci_cache, &oci_project, &["install"]),
        ),
        Case::new(
            || fresh_checkout(&http_checkout, &http_project),
            || skillpkg(temp, &http_cache, &http_checkout, &["install", "--locked"]),
        ),
        Case::new(
            || fresh_checkout(&oci_checkout, &oci_project),
            || skillpkg(temp, &oci_cache, &oci_checkout, &["install", "--locked"]),
        ),
    ];
    let [http_cold, oci_cold, http_warm, oci_warm] = time_interleaved(&mut cases)[..] else {
        unreachable!("four cases")
    };
    let same = |a: &Path, b: &Path| {
        std::fs::read_to_string(a.join("skills.lock"))
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("tree = "))
            .eq(std::fs::read_to_string(b.join("skills.lock"))
                .unwrap()
                .lines()
                .filter(|l| l.starts_with("tree = ")))
    };
    assert!(
        same(&http_project, &oci_project),
        "both indexes install the same trees"
    );

    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    let ratio =
        |d: Duration, base: Duration| format!("{:.2}×", d.as_secs_f64() / base.as_secs_f64());
    println!(
        "| {WANTED} signed packages, one dependency tree (median of {RUNS}) | static HTTP index | OCI namespace | OCI / HTTP |"
    );
    println!("|---|---:|---:|---:|");
    println!(
        "| `skillpkg install`, cold cache | {} | {} | {} |",
        ms(http_cold),
        ms(oci_cold),
        ratio(oci_cold, http_cold)
    );
    println!(
        "| `skillpkg install --locked`, warm cache, fresh checkout | {} | {} | {} |",
        ms(http_warm),
        ms(oci_warm),
        ratio(oci_warm, http_warm)
    );
}
