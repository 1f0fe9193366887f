//! The portable core (docs/platforms.md): outside the Linux sandbox's
//! backend, a call that exists only on Linux is compiled only on Linux,
//! and one that exists only on Unix only on Unix. This machine has no
//! macOS or Windows target to compile for, so the test reads `src/` the
//! way a reviewer would: every use of a Linux-only or a Unix-only symbol
//! must sit in an item, a statement or a file gated by a `#[cfg(…)]` that
//! keeps it off the platforms without it. The portable configuration
//! (`--no-default-features`) checks the backend's crates the same way by
//! compiling without them.

use std::path::{Path, PathBuf};

/// What exists only on Linux: its system calls and their flags, `/proc`,
/// and the sandbox's Linux-only crates.
const LINUX_ONLY: &[&str] = &[
    "prctl",
    "PR_SET_",
    "PR_CAP",
    "set_child_subreaper",
    "\"/proc/",
    "landlock::",
    "seccompiler::",
    "unshare",
    "CLONE_NEW",
    "open_tree",
    "move_mount",
    "keyctl",
    "ioctl_ficlone",
    "libc::SYS_",
    "MS_BIND",
    "MS_REC",
    "OFlags::PATH",
    "std::os::linux",
    "pidfd",
    "memfd",
    "inotify",
    "epoll",
];

/// What exists only on Unix.
const UNIX_ONLY: &[&str] = &[
    "std::os::unix",
    "std::os::fd",
    "rustix::",
    "libc::",
    ".process_group(",
];

/// The cfg predicates that keep code to Linux.
const LINUX_GATES: &[&str] = &["cfg(target_os = \"linux\")", "cfg(linux_sandbox)"];

/// The cfg predicates that keep code to Unix (Linux's included), or to
/// the platforms whose C library has what the code calls (`libc` covers
/// Windows' C runtime too).
const UNIX_GATES: &[&str] = &[
    "cfg(unix)",
    "cfg(windows)",
    "cfg(all(unix",
    "cfg(all(test, unix))",
    "cfg(any(unix, windows))",
    "cfg(target_os = \"linux\")",
    "cfg(target_os = \"macos\")",
    "cfg(linux_sandbox)",
];

/// The Linux backend's files: each is declared under `#[cfg(linux_sandbox)]`
/// in `src/sandbox/mod.rs`, which the test checks.
const BACKEND_FILES: &[&str] = &["helper", "seccomp", "sys"];

/// Uses allowed ungated, each for a reason.
const ALLOWED: &[(&str, &str)] = &[
    // The Linux helper's program; `Backend::Namespaces` is only ever
    // chosen on Linux (`Backend::of_platform`).
    ("src/sandbox/backend.rs", "\"/proc/self/exe\""),
];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Whether line `at` of `lines` is under one of `gates`: on an attribute
/// directly above it, or above an item or statement that encloses it.
fn gated(lines: &[&str], at: usize, gates: &[&str]) -> bool {
    let gate = |line: &str| gates.iter().any(|g| line.contains(g));
    let mut at = at;
    loop {
        let mut above = at;
        while above > 0 {
            let line = lines[above - 1].trim_start();
            if !(line.starts_with("#[") || line.starts_with("//")) {
                break;
            }
            above -= 1;
            if gate(line) {
                return true;
            }
        }
        let depth = indent(lines[at]);
        if depth == 0 {
            return false;
        }
        // The line that opens what encloses this one.
        let mut opener = at;
        loop {
            if opener == 0 {
                return false;
            }
            opener -= 1;
            let line = lines[opener];
            let text = line.trim_start();
            if text.is_empty() || indent(line) >= depth {
                continue;
            }
            // A block of its own, gated (`#[cfg(unix)] { … }`).
            if text.starts_with('{') && opener > 0 && gate(lines[opener - 1]) {
                return true;
            }
            // Attributes, comments, closings, a method chain's links and
            // a brace that opens the block of a head above all belong to
            // what encloses them.
            if !text.starts_with(['#', '/', '}', ')', ']', '.', '{']) {
                break;
            }
        }
        at = opener;
    }
}

/// Every ungated use in `src/`, as `file:line: symbol`.
fn ungated_uses(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let shown = format!(
            "src/{}",
            file.strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        );
        let backend = BACKEND_FILES
            .iter()
            .any(|name| shown == format!("src/sandbox/{name}.rs"));
        // Unit tests run where they are built; what ships is the rest.
        if backend || file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let end = lines
            .iter()
            .position(|l| l.starts_with("#[cfg(test)]"))
            .unwrap_or(lines.len());
        for (n, line) in lines[..end].iter().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let rules = [(LINUX_ONLY, LINUX_GATES), (UNIX_ONLY, UNIX_GATES)];
            for (symbols, gates) in rules {
                let Some(symbol) = symbols.iter().find(|s| code.contains(*s)) else {
                    continue;
                };
                let allowed = ALLOWED.iter().any(|(f, s)| *f == shown && code.contains(s));
                if !allowed && !gated(&lines, n, gates) {
                    found.push(format!("{shown}:{}: {symbol}", n + 1));
                }
                break;
            }
        }
    }
    found
}

#[test]
fn linux_and_unix_only_calls_outside_the_backend_are_gated_by_cfg() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = ungated_uses(&src);
    assert!(
        found.is_empty(),
        "these would not build on macOS or Windows; gate them with \
         #[cfg(target_os = \"linux\")] or #[cfg(unix)] and give the other \
         platforms their counterpart:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_linux_backends_files_are_built_only_with_the_backend() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sandbox/mod.rs"))
            .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for name in BACKEND_FILES {
        let at = lines
            .iter()
            .position(|l| l.ends_with(&format!("mod {name};")))
            .unwrap_or_else(|| panic!("src/sandbox/mod.rs declares no `mod {name}`"));
        assert!(
            gated(&lines, at, &["cfg(linux_sandbox)"]),
            "`mod {name}` is not under #[cfg(linux_sandbox)]"
        );
    }
}

/// The scan catches what it is for, and not what is gated.
#[test]
fn the_scan_finds_an_ungated_call_and_passes_a_gated_one() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("a.rs"),
        "fn f() {\n    let _ = rustix::process::set_child_subreaper(None);\n}\n\n\
         #[cfg(target_os = \"linux\")]\nfn g() {\n    let _ = rustix::process::set_child_subreaper(None);\n}\n\n\
         fn h(pid: u32) {\n    #[cfg(unix)]\n    if let Some(group) = i32::try_from(pid)\n        .ok()\n        .and_then(rustix::process::Pid::from_raw)\n    {\n        let _ = group;\n    }\n    let _ = std::os::unix::fs::symlink(\"a\", \"b\");\n}\n",
    )
    .unwrap();
    assert_eq!(
        ungated_uses(src.path()),
        [
            "src/a.rs:2: set_child_subreaper",
            "src/a.rs:18: std::os::unix"
        ]
    );
}
