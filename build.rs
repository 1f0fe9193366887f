//! Embeds the builtin skills (the repo's `skills/`) and the sample index
//! (`registry-index/`) into the binary, with each file's executable bit, so
//! they can be materialised with real paths; and says whether the Linux
//! sandbox backend is built.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf, bool)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect(&path, base, out);
        } else {
            #[cfg(unix)]
            let executable = {
                use std::os::unix::fs::PermissionsExt;
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o111 != 0
            };
            #[cfg(not(unix))]
            let executable = false;
            let relative = path.strip_prefix(base).unwrap();
            let relative = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push((relative, path.canonicalize().unwrap(), executable));
        }
    }
}

/// Writes `OUT_DIR/<out>`: a static `FILES` listing every file under `dir`.
fn embed(dir: &str, out: &str, doc: &str) {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join(dir);
    println!("cargo::rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    let mut code = format!(
        "/// {doc}: (relative path, executable, contents).\npub(super) static FILES: &[(&str, bool, &[u8])] = &[\n"
    );
    for (relative, path, executable) in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        let path = path.display().to_string();
        writeln!(
            code,
            "    ({relative:?}, {executable}, include_bytes!({path:?})),"
        )
        .unwrap();
    }
    code.push_str("];\n");
    std::fs::write(
        PathBuf::from(std::env::var("OUT_DIR").unwrap()).join(out),
        code,
    )
    .unwrap();
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    // `cfg(linux_sandbox)`: the Linux sandbox backend is built (a Linux
    // target with the `linux-sandbox` feature, on by default). Code that
    // needs Linux's own system calls is the backend's, behind this cfg.
    println!("cargo::rustc-check-cfg=cfg(linux_sandbox)");
    // The target triple, for `--version --verbose` and `doctor`.
    println!(
        "cargo::rustc-env=SKILLPKG_TARGET={}",
        std::env::var("TARGET").unwrap_or_default()
    );
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if linux && std::env::var_os("CARGO_FEATURE_LINUX_SANDBOX").is_some() {
        println!("cargo::rustc-cfg=linux_sandbox");
    }
    embed("skills", "builtin_skills.rs", "The builtin skills' files");
    embed(
        "registry-index",
        "registry_index.rs",
        "The sample index's files",
    );
}
