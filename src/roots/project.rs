//! Finding the project a command runs in.

use std::path::{Path, PathBuf};

/// The manifest file that marks a project.
pub const MANIFEST_FILE: &str = "skills.toml";

/// The project root's skill directory, relative to the project.
pub const DEFAULT_PROJECT_ROOT: &str = ".agents/skills";

/// The nearest directory at or above `start` that holds `skills.toml`.
pub fn find_manifest_dir(start: &Path) -> Option<&Path> {
    start.ancestors().find(|d| d.join(MANIFEST_FILE).is_file())
}

/// Walks up from `start` to the nearest directory holding `skills.toml`;
/// failing that, the nearest git work tree root. `None` outside any project.
pub fn find_project(start: &Path) -> Option<PathBuf> {
    if let Some(dir) = find_manifest_dir(start) {
        return Some(dir.to_path_buf());
    }
    start
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_wins_over_git_root() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("sub/deeper")).unwrap();
        assert_eq!(find_project(&repo.join("sub/deeper")).unwrap(), repo);
        std::fs::write(repo.join("sub/skills.toml"), "").unwrap();
        assert_eq!(
            find_project(&repo.join("sub/deeper")).unwrap(),
            repo.join("sub")
        );
    }
}
