//! Where a plugin is read from: a folder of a git commit, or a folder on
//! this machine, both read path by path, never following a link.

use std::path::{Path, PathBuf};

pub(crate) use crate::git::paths::PathEntry as Entry;

/// Entries of one folder read, at most.
pub(crate) const MAX_CHILDREN: usize = 5_000;

/// A plugin's files, by path relative to its top (`/`-separated).
pub(crate) trait PluginTree {
    /// What `path` holds.
    fn entry(&self, path: &str) -> anyhow::Result<Entry>;
    /// The bytes of the file at `path`; `None` past `max` bytes.
    fn read(&self, path: &str, max: usize) -> anyhow::Result<Option<Vec<u8>>>;
    /// The entries of the folder at `path`; `None` past
    /// [`MAX_CHILDREN`].
    fn children(&self, path: &str) -> anyhow::Result<Option<Vec<(String, Entry)>>>;
}

/// The folder `top` of a commit.
pub(crate) struct GitTree<'r> {
    /// The commit's paths.
    pub paths: crate::git::paths::CommitPaths<'r>,
    /// The plugin's folder in it (`""`: the top).
    pub top: String,
}

impl GitTree<'_> {
    fn full(&self, path: &str) -> String {
        match (self.top.as_str(), path) {
            ("", path) => path.to_string(),
            (top, "") => top.to_string(),
            (top, path) => format!("{top}/{path}"),
        }
    }

    /// A link's path, made relative to the plugin again.
    fn relative(&self, entry: Entry) -> Entry {
        match entry {
            Entry::Link { at, target } => Entry::Link {
                at: at
                    .strip_prefix(&self.top)
                    .map_or(at.as_str(), |rest| rest.trim_start_matches('/'))
                    .to_string(),
                target,
            },
            other => other,
        }
    }
}

impl PluginTree for GitTree<'_> {
    fn entry(&self, path: &str) -> anyhow::Result<Entry> {
        Ok(self.relative(self.paths.entry(&self.full(path))?))
    }

    fn read(&self, path: &str, max: usize) -> anyhow::Result<Option<Vec<u8>>> {
        self.paths.read(&self.full(path), max)
    }

    fn children(&self, path: &str) -> anyhow::Result<Option<Vec<(String, Entry)>>> {
        Ok(self
            .paths
            .children(&self.full(path), MAX_CHILDREN)?
            .map(|children| {
                children
                    .into_iter()
                    .map(|(name, entry)| (name, self.relative(entry)))
                    .collect()
            }))
    }
}

/// A folder on this machine.
pub(crate) struct FolderTree {
    /// The plugin's folder.
    pub top: PathBuf,
}

impl FolderTree {
    /// What `file_type` of the file at `at` is.
    fn kind(&self, file_type: std::fs::FileType, at: &str, path: &Path) -> Entry {
        if file_type.is_symlink() {
            let target = std::fs::read_link(path)
                .map(|t| t.to_string_lossy().into_owned())
                .unwrap_or_default();
            Entry::Link {
                at: at.to_string(),
                target,
            }
        } else if file_type.is_dir() {
            Entry::Folder
        } else if file_type.is_file() {
            Entry::File
        } else {
            Entry::Other
        }
    }
}

impl PluginTree for FolderTree {
    fn entry(&self, path: &str) -> anyhow::Result<Entry> {
        let mut here = self.top.clone();
        let mut at = String::new();
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let mut entry = Entry::Folder;
        for (i, part) in parts.iter().enumerate() {
            here.push(part);
            at = if at.is_empty() {
                part.to_string()
            } else {
                format!("{at}/{part}")
            };
            let metadata = match std::fs::symlink_metadata(&here) {
                Ok(metadata) => metadata,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Entry::Missing),
                Err(e) => return Err(anyhow::Error::new(e).context(here.display().to_string())),
            };
            entry = self.kind(metadata.file_type(), &at, &here);
            match entry {
                Entry::Link { .. } => return Ok(entry),
                Entry::Folder => {}
                _ if i + 1 < parts.len() => return Ok(Entry::Missing),
                _ => {}
            }
        }
        Ok(entry)
    }

    fn read(&self, path: &str, max: usize) -> anyhow::Result<Option<Vec<u8>>> {
        use std::io::Read as _;
        if self.entry(path)? != Entry::File {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        fs_err::File::open(self.top.join(path))?
            .take(max as u64 + 1)
            .read_to_end(&mut bytes)?;
        Ok((bytes.len() <= max).then_some(bytes))
    }

    fn children(&self, path: &str) -> anyhow::Result<Option<Vec<(String, Entry)>>> {
        if self.entry(path)? != Entry::Folder {
            return Ok(Some(Vec::new()));
        }
        let mut children = Vec::new();
        for child in fs_err::read_dir(self.top.join(path))? {
            let child = child?;
            if children.len() == MAX_CHILDREN {
                return Ok(None);
            }
            let Ok(name) = child.file_name().into_string() else {
                continue;
            };
            let at = match path {
                "" => name.clone(),
                path => format!("{path}/{name}"),
            };
            let entry = self.kind(child.file_type()?, &at, &child.path());
            children.push((name, entry));
        }
        children.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Some(children))
    }
}
