//! Reading one file for the rules: its kind (what it does when a skill is
//! used), and its text, a bounded piece of it.

use std::io::Read as _;
use std::path::Path;

/// Bytes of text read from one file, at most.
pub(crate) const MAX_TEXT: usize = 1024 * 1024;

/// What a file is, as far as the rules are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `SKILL.md`: instructions the agent follows.
    SkillMd,
    /// Other Markdown or plain text: documentation.
    Document,
    /// A script, or a file a tool runs (Makefile, `setup.py`, …).
    Script,
    /// `package.json`: its lifecycle scripts run at `npm install`.
    PackageJson,
    /// Other text: data and configuration.
    Data,
    /// A native executable (ELF, PE, Mach-O).
    Executable(&'static str),
    /// An archive.
    Archive(&'static str),
    /// Other binary content (images, fonts, documents).
    Binary,
}

/// One file, read.
pub(crate) struct Read {
    /// Its path relative to the skill.
    pub relative: String,
    pub kind: Kind,
    /// Its text (the first [`MAX_TEXT`] bytes, lossily decoded), for text
    /// files.
    pub text: Option<String>,
    /// Whether the file holds more than the [`MAX_TEXT`] bytes read.
    pub truncated: bool,
}

const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "ksh",
    "fish",
    "py",
    "pyw",
    "js",
    "mjs",
    "cjs",
    "ts",
    "mts",
    "cts",
    "rb",
    "pl",
    "pm",
    "php",
    "ps1",
    "psm1",
    "psd1",
    "bat",
    "cmd",
    "lua",
    "r",
    "jl",
    "swift",
    "go",
    "rs",
    "java",
    "kt",
    "cs",
    "applescript",
    "scpt",
    "vbs",
    "mk",
];
const SCRIPT_NAMES: &[&str] = &[
    "makefile",
    "gnumakefile",
    "dockerfile",
    "setup.py",
    "justfile",
    "rakefile",
    "gemfile",
];
const DOCUMENT_EXTENSIONS: &[&str] = &["md", "markdown", "mdx", "txt", "rst", "adoc", "org"];
const ARCHIVE_EXTENSIONS: &[&str] = &[
    "zip", "jar", "war", "tar", "tgz", "gz", "bz2", "xz", "zst", "7z", "rar", "whl", "egg", "apk",
    "dmg", "iso", "deb", "rpm",
];

/// Whether the file `file` has an executable bit set (never on Windows,
/// which has none).
fn executable(file: &std::fs::File) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        Ok(file.metadata()?.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(false)
    }
}

/// Reads the file at `path` (shown as `relative`).
pub(crate) fn read(path: &Path, relative: &str) -> std::io::Result<Read> {
    read_as(path, relative, false)
}

/// Reads the file at `path` (shown as `relative`), as a script if
/// `runs` (a script or `SKILL.md` runs it with an interpreter).
pub(crate) fn read_as(path: &Path, relative: &str, runs: bool) -> std::io::Result<Read> {
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path)?;
    let executable = executable(&file)?;
    // One byte past the cap tells whether there is more.
    file.take(MAX_TEXT as u64 + 1).read_to_end(&mut bytes)?;
    let truncated = bytes.len() > MAX_TEXT;
    bytes.truncate(MAX_TEXT);
    let name = relative
        .rsplit('/')
        .next()
        .unwrap_or(relative)
        .to_ascii_lowercase();
    let extension = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_string())
        .unwrap_or_default();
    let binary = binary_kind(&bytes, &extension);
    // An executable bit makes text a script (binaries are what they are).
    let run_by_name = runs || (executable && binary.is_none());
    // What runs is read as text whatever bytes it holds: a shell runs a
    // script with a NUL past its first line, or a byte that is not UTF-8.
    let runs = if relative == "SKILL.md" || relative == "skill.md" {
        Some(Kind::SkillMd)
    } else if name == "package.json" {
        Some(Kind::PackageJson)
    } else if SCRIPT_NAMES.contains(&name.as_str())
        || SCRIPT_EXTENSIONS.contains(&extension.as_str())
        || bytes.starts_with(b"#!")
        || run_by_name
    {
        Some(Kind::Script)
    } else {
        None
    };
    if let Some(kind) = binary.filter(|k| runs.is_none() || *k != Kind::Binary) {
        return Ok(Read {
            relative: relative.to_string(),
            kind,
            text: None,
            truncated,
        });
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let kind = match runs {
        Some(kind) => kind,
        None if DOCUMENT_EXTENSIONS.contains(&extension.as_str()) || extension.is_empty() => {
            Kind::Document
        }
        None => Kind::Data,
    };
    Ok(Read {
        relative: relative.to_string(),
        kind,
        text: Some(text),
        truncated,
    })
}

/// What binary `bytes` (a file's first bytes) are, or `None` for text.
fn binary_kind(bytes: &[u8], extension: &str) -> Option<Kind> {
    let starts = |magic: &[u8]| bytes.starts_with(magic);
    if starts(b"\x7fELF") {
        return Some(Kind::Executable("an ELF executable"));
    }
    if starts(b"MZ") && bytes.len() > 64 && !bytes[..64].iter().all(u8::is_ascii) {
        return Some(Kind::Executable("a Windows executable"));
    }
    for magic in [
        b"\xfe\xed\xfa\xce",
        b"\xfe\xed\xfa\xcf",
        b"\xce\xfa\xed\xfe",
        b"\xcf\xfa\xed\xfe",
    ] {
        if starts(magic) {
            return Some(Kind::Executable("a Mach-O executable"));
        }
    }
    // A zip that is an Office document, an image or a font is content.
    if ARCHIVE_EXTENSIONS.contains(&extension)
        && (starts(b"PK\x03\x04")
            || starts(b"\x1f\x8b")
            || starts(b"BZh")
            || starts(b"\xfd7zXZ")
            || starts(b"7z\xbc\xaf")
            || starts(b"Rar!")
            || starts(b"\x28\xb5\x2f\xfd")
            || bytes.get(257..262) == Some(b"ustar"))
    {
        return Some(Kind::Archive("an archive"));
    }
    let sample = &bytes[..bytes.len().min(8192)];
    let binary =
        sample.contains(&0) || std::str::from_utf8(sample).is_err_and(|e| e.error_len().is_some());
    binary.then_some(Kind::Binary)
}

/// The lines of `text` with, for Markdown, whether each is inside a fenced
/// code block (a fence line counts as inside).
pub(crate) fn lines(text: &str, markdown: bool) -> Vec<(usize, &str, bool)> {
    let mut fence: Option<&str> = None;
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let trimmed = line.trim_start();
            let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
            let in_code = match (markdown, fence, marker) {
                (false, _, _) => false,
                (true, None, Some(m)) => {
                    fence = Some(m);
                    true
                }
                (true, Some(open), Some(m)) if m == open => {
                    fence = None;
                    true
                }
                (true, open, _) => open.is_some(),
            };
            (i + 1, line, in_code)
        })
        .collect()
}
