//! What a git tree may hold before anything of it is written: a budget of
//! entries and bytes, checked while the tree is walked (blob sizes read
//! from their headers, nothing inflated), and no links where they could
//! lead reads or writes elsewhere.

use std::path::Path;

use anyhow::{Context as _, bail};
use git2::Repository;

use crate::hint::Hinted;

/// The most a tree may hold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// Files.
    pub files: usize,
    /// Entries, files and folders together.
    pub entries: usize,
    /// Bytes of all files together.
    pub bytes: u64,
    /// Bytes of one file.
    pub file_bytes: u64,
}

impl Budget {
    /// A skill taken from git: as much as an archive of it may unpack to
    /// (`files` files of `bytes` bytes in all, the extraction limits the
    /// caller holds skills to), in as many folders again.
    pub(crate) fn skill(files: usize, bytes: u64) -> Budget {
        Budget {
            files,
            entries: files.saturating_mul(2),
            bytes,
            file_bytes: bytes,
        }
    }
}

/// An index checked out from git: many packages and their archives. One
/// archive may be as large as the index holds (`--max-skill-size` lets a
/// publisher go past the default limit, and installs check each archive
/// against their own limits).
pub(crate) const INDEX_BUDGET: Budget = Budget {
    files: 200_000,
    entries: 200_000,
    bytes: 4 * 1024 * 1024 * 1024,
    file_bytes: 4 * 1024 * 1024 * 1024,
};

/// Walks `tree` (of commit `commit`, from `origin`) within `budget`,
/// refusing names a checkout could trip on, links, and submodules.
pub(crate) fn survey(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    budget: Budget,
    origin: &str,
) -> anyhow::Result<()> {
    let odb = repo.odb()?;
    let (mut entries, mut files, mut bytes) = (0usize, 0usize, 0u64);
    walk(tree, |parent, entry| {
        let name = entry.name().context("a file name that is not UTF-8")?;
        // A crafted tree may hold names git itself would refuse.
        if matches!(name, "" | "." | ".." | ".git") || name.contains(['/', '\\']) {
            bail!("{parent}{name}: a file name a skill may not contain");
        }
        entries += 1;
        if entries > budget.entries {
            bail!(over_budget(
                origin,
                format!("more than {} files and folders", budget.entries)
            ));
        }
        if entry.kind() == Some(git2::ObjectType::Blob) {
            files += 1;
            if files > budget.files {
                bail!(over_budget(
                    origin,
                    format!("more than {} files", budget.files)
                ));
            }
        }
        match entry.kind() {
            Some(git2::ObjectType::Tree) => {}
            Some(git2::ObjectType::Blob) if entry.filemode() == 0o120000 => {
                bail!(
                    "{parent}{name} is a symbolic link, which may lead reads and writes elsewhere"
                )
            }
            Some(git2::ObjectType::Blob) => {
                let (size, _) = odb.read_header(entry.id())?;
                let size = size as u64;
                if size > budget.file_bytes {
                    bail!(over_budget(
                        origin,
                        format!(
                            "{parent}{name} of {size} bytes, more than {}",
                            budget.file_bytes
                        )
                    ));
                }
                bytes += size;
                if bytes > budget.bytes {
                    bail!(over_budget(
                        origin,
                        format!("more than {} bytes of files", budget.bytes)
                    ));
                }
            }
            _ => bail!("{parent}{name} is a submodule, which may not be used here"),
        }
        Ok(())
    })
    .map_err(|e| e.context(format!("{origin} cannot be used")))
}

/// Walks `tree` in pre-order, calling `visit` with each entry's parent
/// path and entry; the first error stops the walk and is returned.
fn walk(
    tree: &git2::Tree<'_>,
    mut visit: impl FnMut(&str, &git2::TreeEntry<'_>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut failure = None;
    let walked = tree.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
        match visit(parent, entry) {
            Ok(()) => git2::TreeWalkResult::Ok,
            Err(e) => {
                failure = Some(e);
                git2::TreeWalkResult::Abort
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(walked?),
    }
}

fn over_budget(origin: &str, what: String) -> Hinted {
    Hinted::new(format!("{origin} holds {what}"))
        .hint("a repository this large is broken or built to exhaust the disk; check its URL")
}

/// The id of the git tree of `subdir` (the whole tree when `None`) at
/// `commit`: equal ids, equal files. `None` when the commit has no such
/// folder.
pub(super) fn folder_tree_id(
    repo: &Repository,
    commit: git2::Oid,
    subdir: Option<&str>,
) -> anyhow::Result<Option<git2::Oid>> {
    let tree = repo.find_commit(commit)?.tree()?;
    let Some(subdir) = subdir
        .map(|s| s.trim_matches('/'))
        .filter(|s| !s.is_empty())
    else {
        return Ok(Some(tree.id()));
    };
    Ok(tree
        .get_path(Path::new(subdir))
        .ok()
        .filter(|entry| entry.kind() == Some(git2::ObjectType::Tree))
        .map(|entry| entry.id()))
}

/// Writes the files of `commit` (under `subdir` when given) into `dest`,
/// executable bits kept, once the tree is known to be within `budget`. Symbolic links and submodules are refused, as
/// packing refuses them.
pub(crate) fn export_tree(
    repo: &Repository,
    commit: git2::Oid,
    subdir: Option<&str>,
    dest: &Path,
    budget: Budget,
) -> anyhow::Result<()> {
    let commit = repo.find_commit(commit)?;
    let mut tree = commit.tree()?;
    if let Some(subdir) = subdir
        .map(|s| s.trim_matches('/'))
        .filter(|s| !s.is_empty())
    {
        let entry = tree
            .get_path(Path::new(subdir))
            .map_err(|_| anyhow::anyhow!("commit {} has no folder '{subdir}'", commit.id()))?;
        tree = entry
            .to_object(repo)?
            .into_tree()
            .map_err(|_| anyhow::anyhow!("'{subdir}' in commit {} is not a folder", commit.id()))?;
    }
    survey(repo, &tree, budget, &format!("commit {}", commit.id()))?;
    fs_err::create_dir_all(dest)?;
    walk(&tree, |parent, entry| {
        let name = entry.name().context("a file name that is not UTF-8")?;
        let path = dest.join(parent).join(name);
        match entry.kind() {
            Some(git2::ObjectType::Tree) => fs_err::create_dir_all(&path)?,
            Some(git2::ObjectType::Blob) if entry.filemode() == 0o120000 => {
                bail!("{parent}{name} is a symbolic link; skills may not contain links")
            }
            Some(git2::ObjectType::Blob) => {
                let blob = repo.find_blob(entry.id())?;
                fs_err::write(&path, blob.content())?;
                #[cfg(unix)]
                if entry.filemode() == 0o100755 {
                    use std::os::unix::fs::PermissionsExt;
                    fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
                }
            }
            _ => bail!("{parent}{name} is a submodule; skills may not contain submodules"),
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Signature;

    /// A commit whose tree holds one entry named `name`, written straight
    /// into the object database (git itself would refuse such a name).
    fn commit_with_entry(repo: &Repository, name: &str) -> git2::Oid {
        let blob = repo.blob(b"payload\n").unwrap();
        let mut raw = format!("100644 {name}\0").into_bytes();
        raw.extend_from_slice(blob.as_bytes());
        let tree = repo
            .odb()
            .unwrap()
            .write(git2::ObjectType::Tree, &raw)
            .unwrap();
        let tree = repo.find_tree(tree).unwrap();
        let who = Signature::now("t", "t@t").unwrap();
        repo.commit(None, &who, &who, "crafted", &tree, &[])
            .unwrap()
    }

    #[test]
    fn exported_trees_refuse_names_that_escape_or_hide() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(dir.path().join("repo.git")).unwrap();
        for name in ["..", ".git"] {
            let commit = commit_with_entry(&repo, name);
            let dest = dir.path().join("out").join("skill");
            let error =
                export_tree(&repo, commit, None, &dest, Budget::skill(10, 1024)).unwrap_err();
            assert!(
                format!("{error:#}").contains("a file name a skill may not contain"),
                "{name}: {error}"
            );
            assert!(!dir.path().join("out").join("payload").exists());
            assert!(!dir.path().join("out").join(name).is_file());
        }
        let fine = commit_with_entry(&repo, "notes.md");
        let dest = dir.path().join("fine");
        export_tree(&repo, fine, None, &dest, Budget::skill(10, 1024)).unwrap();
        assert_eq!(std::fs::read(dest.join("notes.md")).unwrap(), b"payload\n");
    }

    #[test]
    fn a_large_file_is_refused_by_its_header_before_it_is_inflated() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(dir.path().join("repo.git")).unwrap();
        let blob = repo.blob(&vec![0u8; 4096]).unwrap();
        let mut builder = repo.treebuilder(None).unwrap();
        builder.insert("big.bin", blob, 0o100644).unwrap();
        let tree = repo.find_tree(builder.write().unwrap()).unwrap();
        let budget = Budget {
            files: 10,
            entries: 10,
            bytes: 1 << 20,
            file_bytes: 1024,
        };
        let error = survey(&repo, &tree, budget, "the test repository").unwrap_err();
        assert!(
            format!("{error:#}").contains("big.bin of 4096 bytes, more than 1024"),
            "{error:#}"
        );
        let roomy = Budget {
            file_bytes: 8192,
            ..budget
        };
        survey(&repo, &tree, roomy, "the test repository").unwrap();
    }

    #[test]
    fn files_are_counted_apart_from_folders() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(dir.path().join("repo.git")).unwrap();
        let blob = repo.blob(b"x").unwrap();
        let mut inner = repo.treebuilder(None).unwrap();
        for name in ["a", "b", "c"] {
            inner.insert(name, blob, 0o100644).unwrap();
        }
        let inner = inner.write().unwrap();
        let mut outer = repo.treebuilder(None).unwrap();
        outer.insert("folder", inner, 0o040000).unwrap();
        let tree = repo.find_tree(outer.write().unwrap()).unwrap();
        // Three files in one folder: within a skill's budget of three files.
        survey(&repo, &tree, Budget::skill(3, 1024), "the test repository").unwrap();
        let error =
            survey(&repo, &tree, Budget::skill(2, 1024), "the test repository").unwrap_err();
        assert!(
            format!("{error:#}").contains("more than 2 files"),
            "{error:#}"
        );
    }
}
