//! What the install benchmarks share: interleaved timing with medians,
//! running skillpkg against a private home and cache, and folder helpers.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Timed rounds, after one warm-up round.
pub(crate) const RUNS: usize = 5;

/// The median of `samples`.
pub(crate) fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// One thing to time: a setup that is not timed, then the timed run.
pub(crate) struct Case<'a> {
    setup: Box<dyn FnMut() + 'a>,
    run: Box<dyn FnMut() + 'a>,
}

impl<'a> Case<'a> {
    /// A case from its untimed setup and its timed run.
    pub(crate) fn new(setup: impl FnMut() + 'a, run: impl FnMut() + 'a) -> Case<'a> {
        Case {
            setup: Box::new(setup),
            run: Box::new(run),
        }
    }
}

/// Times every case `RUNS` times after one warm-up round, interleaved
/// (a round runs each case once), so that the disk's drift over the run
/// weighs on every case alike; dirty pages are flushed before each timed
/// run. Returns each case's median.
pub(crate) fn time_interleaved(cases: &mut [Case]) -> Vec<Duration> {
    let mut samples = vec![Vec::new(); cases.len()];
    for round in 0..=RUNS {
        for (case, samples) in cases.iter_mut().zip(&mut samples) {
            (case.setup)();
            assert!(Command::new("sync").status().unwrap().success());
            let start = Instant::now();
            (case.run)();
            if round > 0 {
                samples.push(start.elapsed());
            }
        }
    }
    samples.into_iter().map(median).collect()
}

/// Runs `binary -q <args>` in `dir` with every skillpkg folder under
/// `temp` and the cache in `cache`; panics with its stderr if it fails.
pub(crate) fn skillpkg_with(binary: &Path, temp: &Path, cache: &Path, dir: &Path, args: &[&str]) {
    let out = Command::new(binary)
        .args(["-q"])
        .args(args)
        .current_dir(dir)
        .env("HOME", temp.join("home"))
        .env("SKILLPKG_CACHE_DIR", cache)
        .env("SKILLPKG_CONFIG_DIR", temp.join("config"))
        .env("SKILLPKG_DATA_DIR", temp.join("data"))
        .env("SKILLPKG_USER_ROOT", temp.join("user"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} {args:?} in {}: {}",
        binary.display(),
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs this build's skillpkg, as [`skillpkg_with`].
pub(crate) fn skillpkg(temp: &Path, cache: &Path, dir: &Path, args: &[&str]) {
    skillpkg_with(
        Path::new(env!("CARGO_BIN_EXE_skillpkg")),
        temp,
        cache,
        dir,
        args,
    );
}

/// `cp -r from to`.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-r")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Paths `<base>-1`, `<base>-2`, …: a new one for each run of a case that
/// writes, so that no timed run follows the deletion of an earlier run's
/// files. On ext4 without a journal (this machine's), the inode allocator
/// skips every inode deleted in the last minute, one by one, on every
/// file it creates; a run that comes after deletions and lasts past a
/// second boundary pays for all of them, and the slower a run, the more.
pub(crate) struct Numbered {
    base: std::path::PathBuf,
    count: std::cell::Cell<usize>,
}

impl Numbered {
    /// Paths numbered after `base`; none is handed out yet.
    pub(crate) fn new(base: std::path::PathBuf) -> Numbered {
        Numbered {
            base,
            count: std::cell::Cell::new(0),
        }
    }

    /// The next path, which does not exist yet.
    pub(crate) fn advance(&self) -> std::path::PathBuf {
        self.count.set(self.count.get() + 1);
        self.current()
    }

    /// The path [`Numbered::advance`] handed out last.
    pub(crate) fn current(&self) -> std::path::PathBuf {
        let name = self.base.file_name().unwrap().to_string_lossy();
        self.base
            .with_file_name(format!("{name}-{}", self.count.get()))
    }
}

/// An empty folder at `path`, whatever was there.
pub(crate) fn fresh_dir(path: &Path) {
    if path.exists() {
        std::fs::remove_dir_all(path).unwrap();
    }
    std::fs::create_dir_all(path).unwrap();
}

/// Removes `path` if it exists.
pub(crate) fn remove(path: &Path) {
    if path.exists() {
        std::fs::remove_dir_all(path).unwrap();
    }
}

/// Publishes the skill in `dir` as version 1.0.0 of org `bench` into the
/// folder index `index`, signed with `key`.
pub(crate) fn publish_bench(dir: &Path, index: &Path, key: &Path, dependencies: Option<&str>) {
    skillpkg::ops::publish::publish(
        &skillpkg::ops::publish::PublishRequest {
            skill_dir: dir,
            index: index.to_str().unwrap(),
            org: "bench",
            key: Some(key),
            sigstore_bundle: None,
            version: Some("1.0.0"),
            dependencies,
            allow_invalid: false,
            limits: skillpkg::store::limits::Limits::default(),
            channel: None,
            upstream: None,
        },
        &bench_dirs(&index.with_extension("publish-cache")),
    )
    .unwrap();
}

/// Directories for library calls whose cache is `cache`, and which read
/// no configuration.
pub(crate) fn bench_dirs(cache: &Path) -> skillpkg::dirs::Dirs {
    skillpkg::dirs::Dirs {
        config: cache.join("config"),
        cache: cache.to_path_buf(),
        data: cache.join("data"),
        user_root: cache.join("user-root"),
        home: None,
    }
}

/// Makes `checkout` a fresh clone of `project`: its manifest and lock only.
pub(crate) fn fresh_checkout(checkout: &Path, project: &Path) {
    fresh_dir(checkout);
    for file in ["skills.toml", "skills.lock"] {
        std::fs::copy(project.join(file), checkout.join(file)).unwrap();
    }
}

/// Writes benchmark package `i` (`pkg-i`: a SKILL.md and 20 reference
/// files of about 5 KB) under `src`; returns its folder and its
/// dependencies (`pkg-i` depends on `pkg-(i/2)`, so resolution walks a
/// tree).
pub(crate) fn write_bench_skill(src: &Path, i: usize) -> (std::path::PathBuf, Option<String>) {
    let name = format!("pkg-{i}");
    let dir = src.join(&name);
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: Benchmark package {i}. Use when measuring installs.\n---\n\n# {name}\n\nInstructions.\n"),
    )
    .unwrap();
    for f in 0..20 {
        std::fs::write(
            dir.join(format!("references/r{f}.md")),
            format!("{name} reference {f}\n").repeat(200),
        )
        .unwrap();
    }
    let dependencies = (i > 0).then(|| format!("bench/pkg-{}@^1", i / 2));
    (dir, dependencies)
}
