//! Path confinement: every path a tool touches must resolve, symlinks
//! followed, inside one of the allowed directories.

use std::path::{Path, PathBuf};

/// A path a tool may not use, and why.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    /// It resolves outside every allowed directory.
    #[error("{path} is outside the directories this run may use ({allowed})")]
    Outside {
        /// The path asked for.
        path: String,
        /// The directories the run may use.
        allowed: String,
    },
    /// It does not exist (for reads).
    #[error("{path}: no such file or directory")]
    Missing {
        /// The path asked for.
        path: String,
    },
}

/// The directories tools may use, canonical.
#[derive(Debug, Clone)]
pub(crate) struct Confinement {
    allowed: Vec<PathBuf>,
}

impl Confinement {
    /// Allows `dirs` (canonicalised; ones that do not exist are skipped).
    pub(crate) fn new(dirs: impl IntoIterator<Item = PathBuf>) -> Confinement {
        Confinement {
            allowed: dirs
                .into_iter()
                .filter_map(|d| std::fs::canonicalize(d).ok())
                .collect(),
        }
    }

    /// Allows `dirs`, which are canonical already.
    pub(crate) fn canonical(dirs: Vec<PathBuf>) -> Confinement {
        Confinement { allowed: dirs }
    }

    fn describe(&self) -> String {
        self.allowed
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn inside(&self, path: &Path) -> bool {
        self.allowed.iter().any(|dir| path.starts_with(dir))
    }

    /// An existing path, `relative` to `base` unless absolute, resolved
    /// and checked.
    pub(crate) fn existing(&self, base: &Path, relative: &str) -> Result<PathBuf, Refused> {
        let joined = base.join(relative);
        let resolved = std::fs::canonicalize(&joined).map_err(|_| Refused::Missing {
            path: relative.to_string(),
        })?;
        if self.inside(&resolved) {
            Ok(resolved)
        } else {
            Err(Refused::Outside {
                path: relative.to_string(),
                allowed: self.describe(),
            })
        }
    }

    /// A path to write, which may not exist yet: its nearest existing
    /// ancestor is resolved and checked, and the rest may not climb out
    /// with `..`.
    pub(crate) fn writable(&self, base: &Path, relative: &str) -> Result<PathBuf, Refused> {
        let refused = || Refused::Outside {
            path: relative.to_string(),
            allowed: self.describe(),
        };
        let joined = base.join(relative);
        let mut existing = joined.as_path();
        let mut rest = Vec::new();
        // Walk up to what exists. A `..` in the missing part has no file
        // name, so it is refused here rather than resolved by guesswork.
        while std::fs::symlink_metadata(existing).is_err() {
            let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
                return Err(refused());
            };
            rest.push(name.to_os_string());
            existing = parent;
        }
        let mut resolved = std::fs::canonicalize(existing).map_err(|_| refused())?;
        for part in rest.into_iter().rev() {
            resolved.push(part);
        }
        if self.inside(&resolved) {
            Ok(resolved)
        } else {
            Err(refused())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_by_dots_absolute_paths_and_symlinks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret"), "x").unwrap();
        std::fs::write(work.join("ok.txt"), "x").unwrap();
        std::os::unix::fs::symlink(&outside, work.join("link")).unwrap();
        let c = Confinement::new([work.clone()]);
        assert!(c.existing(&work, "ok.txt").is_ok());
        for bad in [
            "../outside/secret",
            "link/secret",
            outside.join("secret").to_str().unwrap(),
        ] {
            assert!(
                matches!(c.existing(&work, bad), Err(Refused::Outside { .. })),
                "{bad}"
            );
        }
        assert!(c.writable(&work, "new/dir/file.txt").is_ok());
        for bad in ["../new.txt", "link/new.txt", "new/../../x.txt", "/etc/x"] {
            assert!(c.writable(&work, bad).is_err(), "{bad}");
        }
    }
}
