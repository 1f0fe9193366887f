//! The signed statement held against the skill folder on disk, as
//! model_signing 1.1.1 reads a folder: every regular file, hidden ones
//! included, hashed with SHA-256 and named by its `/`-separated path from
//! the folder; a few root-level names and the statement's `ignore_paths`
//! left out; any symbolic link or special file fails the check, wherever
//! it is. The names must match both ways unless only the signed files are
//! checked.

use super::SIGNATURE_FILE;
use anyhow::Context as _;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What model_signing leaves out of every folder, by root-relative
/// prefix, besides the signature file and the statement's `ignore_paths`.
const ALWAYS_IGNORED: [&str; 4] = [".git", ".gitattributes", ".github", ".gitignore"];

/// At most this many differences are named in one refusal.
const SHOWN: usize = 10;

/// What a verified statement lists.
#[derive(Debug)]
pub(super) struct Signed {
    /// Each signed file's name and sha256.
    files: BTreeMap<String, [u8; 32]>,
    /// The root-relative prefixes left out of the folder, as components.
    ignored: Vec<Vec<String>>,
}

impl Signed {
    /// The statement's files and `ignore_paths`, refusing names that are
    /// not plain paths inside the folder, and names listed twice.
    pub(super) fn new(
        files: Vec<(String, [u8; 32])>,
        ignore_paths: &[String],
    ) -> anyhow::Result<Signed> {
        let mut listed = BTreeMap::new();
        for (name, digest) in files {
            check_name(&name)?;
            if listed.insert(name.clone(), digest).is_some() {
                anyhow::bail!("the signature lists {name} twice");
            }
        }
        let mut ignored: Vec<Vec<String>> = ALWAYS_IGNORED
            .iter()
            .chain([&SIGNATURE_FILE])
            .map(|name| vec![(*name).to_owned()])
            .collect();
        for path in ignore_paths {
            ignored.extend(ignore_path(path)?);
        }
        Ok(Signed {
            files: listed,
            ignored,
        })
    }

    /// The ignored prefix `name` falls under, if any.
    fn ignored_by(&self, name: &str) -> Option<String> {
        let parts: Vec<&str> = name.split('/').collect();
        self.ignored
            .iter()
            .find(|prefix| {
                prefix.len() <= parts.len() && prefix.iter().zip(&parts).all(|(a, b)| a == b)
            })
            .map(|prefix| prefix.join("/"))
    }
}

/// A signed file's name must be a plain relative path: no `..`, no
/// leading `/` (model_signing would hash a file outside the folder with
/// `--ignore_unsigned_files`), no empty or `.` parts.
fn check_name(name: &str) -> anyhow::Result<()> {
    if name.starts_with('/') || name.split('/').any(|part| part == "..") {
        anyhow::bail!("the signature lists {name:?}, a path outside the folder");
    }
    if name.split('/').any(|part| part.is_empty() || part == ".") {
        anyhow::bail!("the signature lists {name:?}, which is not a plain relative path");
    }
    Ok(())
}

/// One of the statement's `ignore_paths` as root-relative components, as
/// Python's `pathlib` reads it (`./a/` is `a`); `None` for those that can
/// match nothing in the folder (absolute, or through `..`). A path naming
/// the folder itself is refused: it would leave every file unchecked.
fn ignore_path(path: &str) -> anyhow::Result<Option<Vec<String>>> {
    if path.starts_with('/') {
        return Ok(None);
    }
    let parts: Vec<String> = path
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .map(str::to_owned)
        .collect();
    if parts.iter().any(|part| part == "..") {
        return Ok(None);
    }
    if parts.is_empty() {
        anyhow::bail!(
            "the signature's ignore_paths names the whole folder ({path:?}), which would leave every file unchecked"
        );
    }
    Ok(Some(parts))
}

/// Orders `/`-separated names part by part, as model_signing sorts them
/// (so `a/b` comes before `a.txt`).
fn component_order(a: &str, b: &str) -> Ordering {
    a.split('/').cmp(b.split('/'))
}

/// Checks the folder against `signed`: the same files with the same
/// digests, or with `only_signed`, every signed file there and unchanged.
/// Returns what the signature vouches for: the signed files and the
/// signature file itself. What model_signing leaves out (`.github/`,
/// `.gitignore`, the statement's `ignore_paths`) and, with `only_signed`,
/// what the statement does not list, are in the folder but not vouched for.
pub(super) fn check(
    dir: &Path,
    signed: &Signed,
    only_signed: bool,
) -> anyhow::Result<BTreeSet<String>> {
    let kind = std::fs::symlink_metadata(dir)
        .with_context(|| format!("the skill folder {} cannot be read", dir.display()))?
        .file_type();
    if kind.is_symlink() {
        anyhow::bail!(
            "{} is a symbolic link; give the skill folder itself",
            dir.display()
        );
    }
    if !kind.is_dir() {
        anyhow::bail!("{} is not a folder", dir.display());
    }
    let found = if only_signed {
        hash_signed(dir, signed)?
    } else {
        hash_all(dir, signed)?
    };
    let mut problems: Vec<(&str, String)> = Vec::new();
    for (name, digest) in &signed.files {
        match found.get(name) {
            Some(actual) if actual == digest => {}
            Some(_) => problems.push((name, format!("{name} was changed after signing"))),
            None => problems.push((
                name,
                match signed.ignored_by(name) {
                    Some(prefix) => format!("{name} is signed but lies under the ignored {prefix}"),
                    None => format!("{name} is signed but missing"),
                },
            )),
        }
    }
    for name in found.keys() {
        if !signed.files.contains_key(name) {
            problems.push((name, format!("{name} is not covered by the signature")));
        }
    }
    if problems.is_empty() {
        return Ok(signed
            .files
            .keys()
            .cloned()
            .chain([SIGNATURE_FILE.to_owned()])
            .collect());
    }
    problems.sort_by(|(a, _), (b, _)| component_order(a, b));
    let mut said: Vec<&str> = problems
        .iter()
        .take(SHOWN)
        .map(|(_, said)| said.as_str())
        .collect();
    let more = problems.len().saturating_sub(SHOWN);
    let more = format!("and {more} more");
    if problems.len() > SHOWN {
        said.push(&more);
    }
    anyhow::bail!("{}", said.join("; "))
}

/// Every file in the folder that is not ignored, by name. Links and
/// special files fail, ignored or not, as in model_signing.
fn hash_all(dir: &Path, signed: &Signed) -> anyhow::Result<BTreeMap<String, [u8; 32]>> {
    let mut found = BTreeMap::new();
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .follow_root_links(false)
        .min_depth(1)
        .sort_by_file_name();
    for entry in walk {
        let entry =
            entry.with_context(|| format!("the skill folder {} cannot be read", dir.display()))?;
        let name = name_of(dir, entry.path())?;
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        refuse_links_and_special_files(&name, kind)?;
        if signed.ignored_by(&name).is_none() {
            found.insert(name, hash_file(entry.path())?);
        }
    }
    Ok(found)
}

/// The signed files only, by name; those missing, ignored or not files are
/// left out (and so reported missing). A link on the way to a signed file
/// fails.
fn hash_signed(dir: &Path, signed: &Signed) -> anyhow::Result<BTreeMap<String, [u8; 32]>> {
    let mut found = BTreeMap::new();
    'files: for name in signed.files.keys() {
        if signed.ignored_by(name).is_some() {
            continue;
        }
        let mut path = dir.to_path_buf();
        let mut so_far = Vec::new();
        for part in name.split('/') {
            path.push(part);
            so_far.push(part);
            let kind = match std::fs::symlink_metadata(&path) {
                Ok(metadata) => metadata.file_type(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue 'files,
                Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => continue 'files,
                Err(e) => {
                    return Err(e).with_context(|| format!("{} cannot be read", so_far.join("/")));
                }
            };
            if kind.is_dir() {
                continue;
            }
            refuse_links_and_special_files(&so_far.join("/"), kind)?;
        }
        if path.is_file() {
            found.insert(name.clone(), hash_file(&path)?);
        }
    }
    Ok(found)
}

/// Refuses what is neither a folder nor a regular file.
fn refuse_links_and_special_files(name: &str, kind: std::fs::FileType) -> anyhow::Result<()> {
    if kind.is_symlink() {
        anyhow::bail!("{name} is a symbolic link, which an OMS signature cannot cover");
    }
    if !kind.is_file() {
        anyhow::bail!(
            "{name} is not a regular file (a FIFO, socket or device), which an OMS signature cannot cover"
        );
    }
    Ok(())
}

/// `path`'s name in the folder, `/`-separated.
fn name_of(dir: &Path, path: &Path) -> anyhow::Result<String> {
    let relative = path
        .strip_prefix(dir)
        .expect("the walk stays in the folder");
    let parts = relative
        .components()
        .map(|part| part.as_os_str().to_str())
        .collect::<Option<Vec<_>>>()
        .with_context(|| {
            format!(
                "{} has a name that is not UTF-8, which no signature can list",
                relative.display()
            )
        })?;
    Ok(parts.join("/"))
}

/// A regular file's sha256, read without following a link or blocking on
/// a FIFO put in its place since the walk.
fn hash_file(path: &Path) -> anyhow::Result<[u8; 32]> {
    use sha2::Digest as _;
    let mut file = crate::store::regular::open_regular(path)?;
    let mut hasher = sha2::Sha256::new();
    std::io::copy(&mut file, &mut hasher)
        .with_context(|| format!("{} cannot be read", path.display()))?;
    Ok(hasher.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed(ignore_paths: &[&str]) -> Signed {
        let ignore: Vec<String> = ignore_paths.iter().map(|p| (*p).to_owned()).collect();
        Signed::new(vec![("SKILL.md".into(), [0; 32])], &ignore).unwrap()
    }

    #[test]
    fn names_must_be_plain_paths_inside_the_folder() {
        for name in ["SKILL.md", "scripts/run.sh", ".hidden", "a..b/c.."] {
            assert!(check_name(name).is_ok(), "{name}");
        }
        for name in ["../outside.txt", "a/../../x", "/etc/passwd", "a/.."] {
            let refused = format!("{}", check_name(name).unwrap_err());
            assert!(refused.contains("outside the folder"), "{name}: {refused}");
        }
        for name in ["", "a//b", "./a", "a/", "a/./b"] {
            let refused = format!("{}", check_name(name).unwrap_err());
            assert!(
                refused.contains("not a plain relative path"),
                "{name}: {refused}"
            );
        }
        let twice = Signed::new(vec![("a".into(), [0; 32]), ("a".into(), [1; 32])], &[]);
        assert!(format!("{}", twice.unwrap_err()).contains("lists a twice"));
    }

    #[test]
    fn git_files_and_the_signature_are_ignored_at_the_root_only() {
        let rules = signed(&[]);
        for name in [
            ".git/config",
            ".gitignore",
            ".gitattributes",
            ".github/workflows/ci.yml",
            "skill.oms.sig",
        ] {
            assert!(rules.ignored_by(name).is_some(), "{name}");
        }
        for name in [
            "scripts/.gitignore",
            "sub/skill.oms.sig",
            ".gitx",
            ".github2/x",
            ".env",
            "SKILL.md",
        ] {
            assert_eq!(rules.ignored_by(name), None, "{name}");
        }
    }

    #[test]
    fn ignore_paths_are_root_relative_prefixes_read_as_pathlib_reads_them() {
        let rules = signed(&["docs/", "./build", "/etc", "../x", "a/../b", "deep/er"]);
        assert_eq!(rules.ignored_by("docs/a.md").as_deref(), Some("docs"));
        assert_eq!(rules.ignored_by("docs").as_deref(), Some("docs"));
        assert_eq!(rules.ignored_by("build/out.bin").as_deref(), Some("build"));
        assert_eq!(rules.ignored_by("deep/er/x").as_deref(), Some("deep/er"));
        for name in ["docs2/a.md", "sub/docs/a.md", "deep/x", "etc/x", "b", "x"] {
            assert_eq!(rules.ignored_by(name), None, "{name}");
        }
        for whole in ["", ".", "./", ".//."] {
            let refused = Signed::new(Vec::new(), &[whole.to_owned()]).unwrap_err();
            assert!(format!("{refused}").contains("whole folder"), "{whole:?}");
        }
    }

    #[test]
    fn names_sort_part_by_part() {
        let mut names = vec!["a.txt", "a/b", "B", "a-b", "a/a/z", "a"];
        names.sort_by(|a, b| component_order(a, b));
        assert_eq!(names, ["B", "a", "a/a/z", "a/b", "a-b", "a.txt"]);
    }
}
