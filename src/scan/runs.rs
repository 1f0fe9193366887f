//! Which files a skill runs with an interpreter: `bash scripts/run.txt`
//! in `SKILL.md` or in a script makes `run.txt` a script, whatever its
//! name says.

use std::sync::LazyLock;

use regex::Regex;

use super::file::{Kind, Read};
use super::pattern::regex;

/// An interpreter, or `source`/`.`, given a file to run.
static RUN_WITH_INTERPRETER: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?:^|[\s;&|(`"'])(?:(?:ba|z|k|da|fi)?sh|python[0-9.]*|node|perl|ruby|php|deno\s+run|bun|tsx|pwsh|powershell|source|\.)\s+(?:-{1,2}[\w-]+\s+)*["']?([\w${}./-]+)"#,
    )
});

/// Prefixes that name the skill's own folder.
const SKILL_DIR: &[&str] = &[
    "${CLAUDE_SKILL_DIR}/",
    "$CLAUDE_SKILL_DIR/",
    "${SKILL_DIR}/",
    "$SKILL_DIR/",
    "{baseDir}/",
    "${baseDir}/",
    "./",
];

/// The files (relative to the skill) that `read` runs with an
/// interpreter: as written from the skill's folder, and from the folder
/// of `read` itself.
pub(super) fn run_by(read: &Read) -> Vec<String> {
    if !matches!(read.kind, Kind::SkillMd | Kind::Script) {
        return Vec::new();
    }
    let Some(text) = &read.text else {
        return Vec::new();
    };
    let folder = read
        .relative
        .rsplit_once('/')
        .map_or("", |(folder, _)| folder);
    let mut found = Vec::new();
    for captures in RUN_WITH_INTERPRETER.captures_iter(text) {
        let mut path = &captures[1];
        while let Some(rest) = SKILL_DIR.iter().find_map(|p| path.strip_prefix(p)) {
            path = rest;
        }
        if path.is_empty() || path.contains("..") || path.starts_with(['/', '$', '-']) {
            continue;
        }
        found.push(path.to_string());
        if !folder.is_empty() {
            found.push(format!("{folder}/{path}"));
        }
    }
    found
}

#[cfg(test)]
mod tests;
