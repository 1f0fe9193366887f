//! Reading single paths of a commit's tree, one component at a time and
//! without following links: what a path holds, a file's bytes within a
//! bound, a folder's entries. Plugin manifests and the folders they name
//! are read this way, before anything of the repository is written.

use git2::{ObjectType, Repository};

/// What a path of a commit holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathEntry {
    /// Nothing (or a file where a folder should be on the way).
    Missing,
    /// A file.
    File,
    /// A folder.
    Folder,
    /// A symbolic link, at `at` (the path itself or a folder on the way
    /// to it), whose target is `target`. It is not followed.
    Link {
        /// The link's path, relative to the top.
        at: String,
        /// What it points to, as stored (lossy UTF-8).
        target: String,
    },
    /// A submodule.
    Other,
}

/// One commit's tree, read path by path.
pub(crate) struct CommitPaths<'r> {
    repo: &'r Repository,
    tree: git2::Tree<'r>,
}

impl<'r> CommitPaths<'r> {
    /// The tree of `commit` in `repo`.
    pub(crate) fn new(repo: &'r Repository, commit: git2::Oid) -> anyhow::Result<CommitPaths<'r>> {
        let tree = repo.find_commit(commit)?.tree()?;
        Ok(CommitPaths { repo, tree })
    }

    /// What `path` (relative, `/`-separated; `""` is the top) holds.
    pub(crate) fn entry(&self, path: &str) -> anyhow::Result<PathEntry> {
        Ok(self.find(path)?.0)
    }

    /// The bytes of the file at `path`, or `None` when it holds more than
    /// `max` bytes (or is no file).
    pub(crate) fn read(&self, path: &str, max: usize) -> anyhow::Result<Option<Vec<u8>>> {
        let (PathEntry::File, Some(id)) = self.find(path)? else {
            return Ok(None);
        };
        let (size, _) = self.repo.odb()?.read_header(id)?;
        if size > max {
            return Ok(None);
        }
        Ok(Some(self.repo.find_blob(id)?.content().to_vec()))
    }

    /// The entries of the folder at `path`, by name (names that are not
    /// UTF-8 left out), at most `max` of them (`None`: more).
    pub(crate) fn children(
        &self,
        path: &str,
        max: usize,
    ) -> anyhow::Result<Option<Vec<(String, PathEntry)>>> {
        let (PathEntry::Folder, Some(id)) = self.find(path)? else {
            return Ok(Some(Vec::new()));
        };
        let tree = self.repo.find_tree(id)?;
        if tree.len() > max {
            return Ok(None);
        }
        let mut children = Vec::new();
        for entry in tree.iter() {
            let Ok(name) = entry.name() else { continue };
            let at = join(path, name);
            children.push((name.to_string(), self.kind_of(&entry, at)?));
        }
        Ok(Some(children))
    }

    /// What `path` holds, and its object.
    fn find(&self, path: &str) -> anyhow::Result<(PathEntry, Option<git2::Oid>)> {
        let mut tree = self.tree.clone();
        let mut at = String::new();
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        if parts.is_empty() {
            return Ok((PathEntry::Folder, Some(tree.id())));
        }
        for (i, part) in parts.iter().enumerate() {
            at = join(&at, part);
            let (kind, id) = match tree.get_name(part) {
                Some(entry) => (self.kind_of(&entry, at.clone())?, entry.id()),
                None => return Ok((PathEntry::Missing, None)),
            };
            let last = i + 1 == parts.len();
            match kind {
                PathEntry::Folder if !last => tree = self.repo.find_tree(id)?,
                PathEntry::Link { .. } => return Ok((kind, None)),
                _ if !last => return Ok((PathEntry::Missing, None)),
                kind => return Ok((kind, Some(id))),
            }
        }
        unreachable!("the last part returns")
    }

    fn kind_of(&self, entry: &git2::TreeEntry<'_>, at: String) -> anyhow::Result<PathEntry> {
        Ok(match entry.kind() {
            Some(ObjectType::Tree) => PathEntry::Folder,
            Some(ObjectType::Blob) if entry.filemode() == 0o120000 => {
                // A link's blob is its target: a path, short.
                let blob = self.repo.find_blob(entry.id())?;
                let target = blob.content();
                let target = &target[..target.len().min(4096)];
                PathEntry::Link {
                    at,
                    target: String::from_utf8_lossy(target).into_owned(),
                }
            }
            Some(ObjectType::Blob) => PathEntry::File,
            _ => PathEntry::Other,
        })
    }
}

/// `folder/name`, or `name` at the top.
fn join(folder: &str, name: &str) -> String {
    match folder {
        "" => name.to_string(),
        folder => format!("{folder}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(dir.path()).unwrap();
        let text = repo.blob(b"{}").unwrap();
        let link = repo.blob(b"../../etc").unwrap();
        let mut inner = repo.treebuilder(None).unwrap();
        inner.insert("plugin.json", text, 0o100644).unwrap();
        inner.insert("out", link, 0o120000).unwrap();
        let inner = inner.write().unwrap();
        let mut top = repo.treebuilder(None).unwrap();
        top.insert("p", inner, 0o040000).unwrap();
        top.insert("up", link, 0o120000).unwrap();
        let top = repo.find_tree(top.write().unwrap()).unwrap();
        let who = git2::Signature::now("t", "t@t").unwrap();
        let commit = repo.commit(None, &who, &who, "m", &top, &[]).unwrap();
        let paths = CommitPaths::new(&repo, commit).unwrap();
        assert_eq!(paths.entry("").unwrap(), PathEntry::Folder);
        assert_eq!(paths.entry("p").unwrap(), PathEntry::Folder);
        assert_eq!(paths.entry("p/plugin.json").unwrap(), PathEntry::File);
        assert_eq!(paths.entry("p/plugin.json/x").unwrap(), PathEntry::Missing);
        assert_eq!(paths.entry("q").unwrap(), PathEntry::Missing);
        let up = PathEntry::Link {
            at: "up".into(),
            target: "../../etc".into(),
        };
        assert_eq!(paths.entry("up/passwd").unwrap(), up);
        assert_eq!(paths.read("p/plugin.json", 2).unwrap().unwrap(), b"{}");
        assert_eq!(paths.read("p/plugin.json", 1).unwrap(), None);
        assert_eq!(paths.read("up/passwd", 100).unwrap(), None);
        let children = paths.children("p", 10).unwrap().unwrap();
        assert_eq!(children.len(), 2);
        assert!(paths.children("p", 1).unwrap().is_none());
    }
}
