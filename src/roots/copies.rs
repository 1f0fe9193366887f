//! Whether a copy marked as skillpkg's ([`super::COPY_MARKER`]) in an
//! agent's folder is what it claims: the installed skill's files, byte for
//! byte. A cloned repository can plant the marker on a skill of its own,
//! and the agent that reads the folder would load that one while skillpkg
//! listed the installed skill in its place.

use std::path::{Path, PathBuf};

/// The regular files below `dir`, sorted, with their sizes, leaving out
/// `except` at the top; `None` when `dir` holds anything but folders and
/// regular files (no copy skillpkg makes does) or cannot be read.
fn files(dir: &Path, except: &str) -> Option<Vec<(PathBuf, u64)>> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.ok()?;
        let relative = entry.path().strip_prefix(dir).ok()?.to_path_buf();
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        if !kind.is_file() {
            return None;
        }
        if relative.as_os_str() == except {
            continue;
        }
        found.push((relative, entry.metadata().ok()?.len()));
    }
    Some(found)
}

/// Whether `copy` holds the same files as `installed`, byte for byte, its
/// `marker` aside. Sizes are compared before any byte is read, so a planted
/// copy costs no more to read than the installed skill.
pub(super) fn is_copy_of(copy: &Path, installed: &Path, marker: &str) -> bool {
    let (Some(copied), Some(original)) = (files(copy, marker), files(installed, "")) else {
        return false;
    };
    copied == original
        && original
            .iter()
            .all(|(relative, _)| same_bytes(&copy.join(relative), &installed.join(relative)))
}

/// Whether the files `a` and `b` hold the same bytes, compared piece by
/// piece (a large file is never read whole); false when either cannot
/// be read.
fn same_bytes(a: &Path, b: &Path) -> bool {
    use std::io::Read as _;
    let (Ok(a), Ok(b)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    let (mut a, mut b) = (std::io::BufReader::new(a), std::io::BufReader::new(b));
    let (mut left, mut right) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let Ok(n) = a.read(&mut left) else {
            return false;
        };
        if n == 0 {
            return matches!(b.read(&mut right[..1]), Ok(0));
        }
        if b.read_exact(&mut right[..n]).is_err() || left[..n] != right[..n] {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_files_are_a_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let installed = tmp.path().join("installed");
        let copy = tmp.path().join("copy");
        for dir in [&installed, &copy] {
            std::fs::create_dir_all(dir.join("scripts")).unwrap();
            std::fs::write(dir.join("SKILL.md"), "same").unwrap();
            std::fs::write(dir.join("scripts/run.sh"), "echo").unwrap();
        }
        std::fs::write(copy.join(".mark"), "").unwrap();
        assert!(is_copy_of(&copy, &installed, ".mark"));
        // Edited, with the same size.
        std::fs::write(copy.join("SKILL.md"), "diff").unwrap();
        assert!(!is_copy_of(&copy, &installed, ".mark"));
        std::fs::write(copy.join("SKILL.md"), "same").unwrap();
        // A file more.
        std::fs::write(copy.join("extra.md"), "x").unwrap();
        assert!(!is_copy_of(&copy, &installed, ".mark"));
        std::fs::remove_file(copy.join("extra.md")).unwrap();
        // A link in place of a file.
        #[cfg(unix)]
        {
            std::fs::remove_file(copy.join("scripts/run.sh")).unwrap();
            std::os::unix::fs::symlink(
                installed.join("scripts/run.sh"),
                copy.join("scripts/run.sh"),
            )
            .unwrap();
            assert!(!is_copy_of(&copy, &installed, ".mark"));
        }
    }
}
