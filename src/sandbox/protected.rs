//! The paths inside the workspace that scripts, shell commands and the
//! model's `write_file` may not write: one rule for both, decided here.
//!
//! - version control: `.git` at any depth (a nested repository's hooks run
//!   on the next `git` command there);
//! - skillpkg's own state and projects' files: `.skillpkg/`, `skills.toml`,
//!   `skills.lock`, at any depth (a nested project's too);
//! - skills: every `.X/skills` folder at any depth, the skill roots and
//!   every skill's folder (their `allowed-tools` grant tools);
//! - configuration that runs code later: agents' and editors' settings
//!   (`.claude/settings*.json`, `.claude/hooks`, `.cursor/`, `.codex/`,
//!   `.gemini/`, `.vscode/`) and `.envrc`.
//!
//! `--allow-write PATH` lifts version control and the last group (and
//! only those: skillpkg's state and skills stay read-only) for `PATH` and
//! what lies beneath it: the user's own choice on the command line, which
//! no `skills.toml` can make. The model's `write_file` checks [`why`] by path;
//! the sandbox binds read-only what [`ProtectedPaths::existing`] finds.

use std::path::{Path, PathBuf};

/// Folders walked, at most, to find nested protected paths before a
/// command runs.
const MAX_WALKED_FOLDERS: usize = 5_000;

/// Folders not walked into when looking for nested protected paths: large
/// and made by tools, not checked-out code.
const NOT_WALKED: [&str; 4] = ["node_modules", "target", ".venv", "__pycache__"];

/// Names of agents' and editors' folders whose settings start commands.
const CODE_RUNNING_FOLDERS: [&str; 4] = [".cursor", ".codex", ".gemini", ".vscode"];

/// Why `relative` (a path inside the workspace, by name) may not be
/// written, when it may not be; `allowed` lifts version control and the
/// code-running group.
pub(crate) fn why(relative: &Path, allowed: bool) -> Option<&'static str> {
    let names: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if !allowed && names.iter().any(|n| n == ".git") {
        return Some(
            "it is inside .git/ (its hooks run later); pass --allow-write PATH to allow it",
        );
    }
    if names.iter().any(|n| n == crate::project::STATE_DIR) {
        return Some("it is inside .skillpkg/");
    }
    if names
        .last()
        .is_some_and(|n| n == crate::project::MANIFEST_FILE || n == crate::project::LOCK_FILE)
    {
        return Some("it is the project's manifest or lock");
    }
    if names
        .windows(2)
        .any(|w| w[0].starts_with('.') && w[1] == "skills")
    {
        return Some("it is part of a skill");
    }
    if !allowed && runs_code(&names) {
        return Some(
            "it is configuration that starts commands (an agent's or editor's settings, .envrc); pass --allow-write PATH to allow it",
        );
    }
    None
}

/// Whether `relative` (inside the workspace) is, or lies in, an agent's or
/// editor's configuration that starts commands, or an `.envrc`.
pub(crate) fn starts_commands(relative: &Path) -> bool {
    let names: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    runs_code(&names)
}

/// Whether the path named by `names` is (or lies in) configuration that
/// starts commands.
fn runs_code(names: &[String]) -> bool {
    let last = names.last().map(String::as_str);
    if last == Some(".envrc") {
        return true;
    }
    names.iter().enumerate().any(|(i, name)| {
        let next = names.get(i + 1).map(String::as_str);
        CODE_RUNNING_FOLDERS.contains(&name.as_str())
            || (name == ".claude"
                && next.is_some_and(|n| {
                    n == "hooks" || (n.starts_with("settings") && n.ends_with(".json"))
                }))
    })
}

/// The protected paths of one workspace.
#[derive(Debug, Clone)]
pub(crate) struct ProtectedPaths<'a> {
    /// The workspace (canonical).
    pub workspace: &'a Path,
    /// Skill roots and skills' folders (canonical), wherever they are.
    pub skills: &'a [PathBuf],
    /// Paths the user allowed writing (`--allow-write`), canonical.
    pub allow_write: &'a [PathBuf],
}

impl ProtectedPaths<'_> {
    /// Why `path` (canonical, inside the workspace) may not be written.
    pub(crate) fn why(&self, path: &Path) -> Option<&'static str> {
        if self.skills.iter().any(|dir| path.starts_with(dir)) {
            return Some("it is part of a skill");
        }
        let relative = path.strip_prefix(self.workspace).unwrap_or(path);
        why(relative, self.allowed(path))
    }

    /// Whether the user allowed writing `path`.
    fn allowed(&self, path: &Path) -> bool {
        self.allow_write.iter().any(|a| path.starts_with(a))
    }

    /// The protected paths that exist in the workspace, canonical and
    /// inside it: the top-level ones, those a bounded walk finds nested,
    /// and the skills that lie there. Outermost first, none beneath
    /// another.
    pub(crate) fn existing(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut walked = 0;
        let mut walker = walkdir::WalkDir::new(self.workspace)
            .follow_links(false)
            .into_iter();
        while let Some(Ok(entry)) = walker.next() {
            if entry.depth() == 0 {
                continue;
            }
            let path = entry.path();
            let relative = path.strip_prefix(self.workspace).unwrap_or(path);
            if why(relative, self.allowed(path)).is_some() {
                found.push(path.to_path_buf());
                if entry.file_type().is_dir() {
                    walker.skip_current_dir();
                }
                continue;
            }
            if entry.file_type().is_dir() {
                walked += 1;
                let name = entry.file_name().to_string_lossy();
                if walked >= MAX_WALKED_FOLDERS || NOT_WALKED.contains(&name.as_ref()) {
                    walker.skip_current_dir();
                }
            }
        }
        found.extend(self.skills.iter().cloned());
        // Resolved, so a link planted in the workspace protects what it
        // leads to there, and a link leading out of it (or nowhere) costs
        // nothing: what lies outside is not writable anyway.
        let resolved = found
            .iter()
            .filter_map(|path| std::fs::canonicalize(path).ok())
            .filter(|path| path.starts_with(self.workspace) && path != self.workspace)
            .collect();
        outermost(resolved)
    }
}

/// `paths` sorted, without duplicates and without paths beneath another.
pub(crate) fn outermost(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    paths.sort();
    paths.dedup();
    let mut kept: Vec<PathBuf> = Vec::new();
    for path in paths {
        if !kept.iter().any(|k| path.starts_with(k)) {
            kept.push(path);
        }
    }
    kept
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The one table both tools are tested against (see also
    /// `tests/it/sandbox.rs`): a path, and whether it is protected.
    pub(crate) const TABLE: [(&str, bool); 18] = [
        (".git/hooks/pre-commit", true),
        ("vendor/lib/.git/hooks/post-checkout", true),
        (".skillpkg/runs/x", true),
        ("skills.toml", true),
        ("skills.lock", true),
        ("sub/skills.toml", true),
        (".agents/skills/x/SKILL.md", true),
        ("packages/a/.claude/skills/y/SKILL.md", true),
        (".claude/settings.json", true),
        (".claude/settings.local.json", true),
        (".claude/hooks/h.sh", true),
        (".claude/notes.md", false),
        (".vscode/tasks.json", true),
        (".cursor/rules", true),
        ("app/.envrc", true),
        (".envrc.example", false),
        ("src/main.rs", false),
        ("gitignore/.gitkeep", false),
    ];

    #[test]
    fn one_rule_decides_every_protected_path() {
        for (path, protected) in TABLE {
            assert_eq!(why(Path::new(path), false).is_some(), protected, "{path}");
        }
        // --allow-write lifts version control and the code-running
        // settings, never skillpkg's state or skills.
        assert!(why(Path::new(".vscode/tasks.json"), true).is_none());
        assert!(why(Path::new(".git/config"), true).is_none());
        assert!(why(Path::new(".skillpkg/trust"), true).is_some());
        assert!(why(Path::new("skills.lock"), true).is_some());
        assert!(why(Path::new(".agents/skills/x/SKILL.md"), true).is_some());
    }

    #[test]
    fn the_existing_protected_paths_are_found_nested_and_outermost() {
        let dir = tempfile::tempdir().unwrap();
        let workspace = std::fs::canonicalize(dir.path()).unwrap();
        for folder in [
            ".git/hooks",
            "vendor/lib/.git/hooks",
            ".claude/skills/x",
            ".vscode",
            "src",
            "node_modules/m/.git",
            "vendor/skills",
        ] {
            std::fs::create_dir_all(workspace.join(folder)).unwrap();
        }
        for file in ["skills.toml", ".claude/settings.json", ".claude/notes.md"] {
            std::fs::write(workspace.join(file), "").unwrap();
        }
        let skills = [workspace.join("vendor/skills"), PathBuf::from("/elsewhere")];
        let protected = ProtectedPaths {
            workspace: &workspace,
            skills: &skills,
            allow_write: &[],
        };
        // A link to a folder elsewhere in the workspace protects that
        // folder; a link out of it, or to nothing, is left alone.
        std::fs::create_dir_all(workspace.join("real-cursor")).unwrap();
        std::os::unix::fs::symlink(workspace.join("real-cursor"), workspace.join(".cursor"))
            .unwrap();
        std::os::unix::fs::symlink("/nonexistent", workspace.join(".envrc")).unwrap();
        std::os::unix::fs::symlink("/etc", workspace.join(".codex")).unwrap();
        let shown: Vec<String> = protected
            .existing()
            .iter()
            .map(|p| p.strip_prefix(&workspace).unwrap().display().to_string())
            .collect();
        assert_eq!(
            shown,
            [
                ".claude/settings.json",
                ".claude/skills",
                ".git",
                ".vscode",
                "real-cursor",
                "skills.toml",
                "vendor/lib/.git",
                "vendor/skills"
            ]
        );
    }
}
