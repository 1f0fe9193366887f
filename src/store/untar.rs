//! Safe extraction of a skill from a tar layer (gzip-compressed or
//! plain), as OCI registries carry skills: as strict as a `.skill` zip's
//! ([`super::extract`]), with the same limits and refusals.
//!
//! A tar has no central directory: entries are judged one by one as the
//! stream passes, each before a byte of it is written. Only regular files
//! and directories are taken; symbolic and hard links, devices, FIFOs and
//! sparse files are refused. Names are checked as a zip's are (no absolute
//! paths, `..`, backslashes, drive prefixes, control characters,
//! version-control folders, duplicates or names that collide after case
//! folding); one leading `./`, which `tar -C dir .` writes, is dropped.
//! The decompressed stream is counted: past the size limit, or inflating
//! more than the ratio limit over 1 MiB, it is refused as a bomb.
//!
//! The skill is either the layer's one top folder (`<name>/SKILL.md`, the
//! Agent Skills layout) or, where the layout allows it, the layer's top
//! itself (`SKILL.md` beside its files, as plain images hold it). Files
//! are written into a fresh folder that is removed on any refusal, so a
//! refused layer leaves nothing behind.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::extract::{ExtractError, Refusal, check_collision, check_name};
use super::limits::Limits;

/// How a layer's bytes are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (`…tar+gzip`, `…tar.gzip`).
    Gzip,
    /// None (`…tar`).
    None,
}

/// Where in the layer the skill is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rooted<'a> {
    /// In one top folder, which must be named `expected` when given.
    InFolder(Option<&'a str>),
    /// In one top folder, or at the layer's top.
    Anywhere,
    /// Wherever: the layer's whole tree is returned as it is (an Agent
    /// Plugin's, say), for the caller to find its skills in.
    Tree,
}

/// Decompressed bytes a tar may spend on headers, padding and the end
/// marker per entry, beyond the files' own bytes (a header, a PAX or GNU
/// long-name header and its padding).
const OVERHEAD_PER_ENTRY: u64 = 4 * 512;

/// Decompressed streams shorter than this are never judged by their ratio.
const RATIO_CHECK_FLOOR: u64 = 1024 * 1024;

/// Extracts the skill in the tar `layer` (`compressed_len` bytes as
/// stored, compressed as `compression`) into a new folder inside
/// `dest`, which must exist; returns that folder, named after the
/// layer's top folder (or `skill`, for a skill at the layer's top).
/// Errors name the layer as `label`.
pub fn extract_layer(
    layer: impl Read,
    compressed_len: u64,
    compression: Compression,
    rooted: Rooted,
    label: &str,
    dest: &Path,
    limits: &Limits,
) -> Result<PathBuf, ExtractError> {
    let refused = |refusal| ExtractError::Refused {
        archive: PathBuf::from(label),
        refusal,
    };
    let io = |source| ExtractError::Io {
        archive: PathBuf::from(label),
        source,
    };
    let inflated: Box<dyn Read> = match compression {
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(layer)),
        Compression::None => Box::new(layer),
    };
    let budget = limits
        .max_total_bytes
        .saturating_add((limits.max_entries as u64 + 2).saturating_mul(OVERHEAD_PER_ENTRY));
    let counted = Counted {
        inner: inflated,
        read: 0,
        budget,
        ratio_limit: match compression {
            Compression::Gzip => Some((compressed_len.max(1), limits.max_ratio)),
            Compression::None => None,
        },
        exceeded: None,
    };
    let unpacking = tempfile::Builder::new()
        .prefix(".untar-")
        .tempdir_in(dest)
        .map_err(io)?;
    let mut archive = tar::Archive::new(counted);
    let outcome = unpack(&mut archive, unpacking.path(), limits);
    let exceeded = archive.into_inner().exceeded;
    if let Some(exceeded) = exceeded {
        return Err(refused(match exceeded {
            Exceeded::Size => Refusal::TooLarge {
                entry: label.to_string(),
                limit: limits.max_total_bytes,
            },
            Exceeded::Ratio(ratio) => Refusal::CompressionRatio {
                entry: label.to_string(),
                ratio,
                limit: limits.max_ratio,
            },
        }));
    }
    match outcome {
        Ok(()) => {}
        Err(Failure::Refused(refusal)) => return Err(refused(refusal)),
        Err(Failure::Io(source)) => return Err(io(source)),
    }
    let (skill, folder) = find_skill(unpacking.path(), rooted).map_err(refused)?;
    let target = dest.join(&folder);
    if target.symlink_metadata().is_ok() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} is already there", target.display()),
        )));
    }
    fs_err::rename(&skill, &target).map_err(io)?;
    Ok(target)
}

/// Extracts the Agent Skills layer at `archive` (a gzip-compressed tar
/// rooted at `<name>/`, as an OCI index serves a package) into a new
/// staging directory under `staging_parent`, as
/// [`super::extract::extract`] does a `.skill` zip: the staging directory
/// is the skill's folder, and its `SKILL.md` must name the skill its
/// folder does (and `expected`, when given).
pub(crate) fn extract_staged(
    archive: &Path,
    expected: Option<&str>,
    staging_parent: &Path,
    limits: &Limits,
) -> Result<super::extract::Staged, ExtractError> {
    let io = |source| ExtractError::Io {
        archive: archive.to_path_buf(),
        source,
    };
    let refused = |refusal| ExtractError::Refused {
        archive: archive.to_path_buf(),
        refusal,
    };
    fs_err::create_dir_all(staging_parent).map_err(io)?;
    let file = fs_err::File::open(archive).map_err(io)?;
    let length = file.metadata().map_err(io)?.len();
    let unpacked = tempfile::Builder::new()
        .prefix(".extract-layer-")
        .tempdir_in(staging_parent)
        .map_err(io)?;
    let folder = extract_layer(
        std::io::BufReader::new(file),
        length,
        Compression::Gzip,
        Rooted::InFolder(expected),
        &archive.display().to_string(),
        unpacked.path(),
        limits,
    )?;
    let name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let staging = tempfile::Builder::new()
        .prefix(".extract-")
        .tempdir_in(staging_parent)
        .map_err(io)?;
    // The staging directory is empty: renaming over it is allowed.
    fs_err::rename(&folder, staging.path()).map_err(io)?;
    super::extract::check_skill_md(staging.path(), &name).map_err(refused)?;
    let digests = crate::store::hash::file_digests(staging.path()).map_err(io)?;
    // Every file is scanned for hidden Unicode: a layer's files were not
    // read as they were written.
    let files = digests.keys().cloned().collect();
    Ok(super::extract::Staged::from_parts(
        staging, name, digests, files,
    ))
}

/// The files of the Agent Skills layer `layer` that extraction makes
/// executable, by path relative to the skill (the layer's top folder
/// dropped), read from its tar headers as the layer streams by. For a
/// layer already verified against its checksum; extraction checks it in
/// full.
pub(crate) fn layer_executables(
    layer: impl Read,
) -> Result<std::collections::BTreeSet<String>, Refusal> {
    let corrupt = |e: std::io::Error| Refusal::NotTar(e.to_string());
    let mut archive = tar::Archive::new(flate2::read::MultiGzDecoder::new(layer));
    let mut found = std::collections::BTreeSet::new();
    for entry in archive.entries().map_err(corrupt)? {
        let entry = entry.map_err(corrupt)?;
        let header = entry.header();
        if header.entry_type() != tar::EntryType::Regular
            || header.mode().map_err(corrupt)? & 0o111 == 0
        {
            continue;
        }
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let name = name.strip_prefix("./").unwrap_or(&name);
        if let Some((_, relative)) = name.split_once('/') {
            found.insert(relative.to_string());
        }
    }
    Ok(found)
}

/// Why unpacking stopped.
enum Failure {
    Refused(Refusal),
    Io(std::io::Error),
}

impl From<Refusal> for Failure {
    fn from(refusal: Refusal) -> Failure {
        Failure::Refused(refusal)
    }
}

/// Writes every entry of `archive` under `into`, checking each first.
fn unpack<R: Read>(
    archive: &mut tar::Archive<R>,
    into: &Path,
    limits: &Limits,
) -> Result<(), Failure> {
    let corrupt = |e: std::io::Error| Refusal::NotTar(e.to_string());
    let mut seen = HashSet::new();
    let mut folded_names = HashMap::new();
    let mut count = 0usize;
    let mut written: u64 = 0;
    for entry in archive.entries().map_err(corrupt)? {
        let mut entry = entry.map_err(corrupt)?;
        let raw = entry.path_bytes().into_owned();
        let name = String::from_utf8(raw).map_err(|e| {
            Refusal::NonUtf8Name(String::from_utf8_lossy(e.as_bytes()).into_owned())
        })?;
        let kind = entry.header().entry_type();
        if kind == tar::EntryType::XGlobalHeader {
            // Global PAX attributes (`git archive` writes its commit
            // there): no file.
            continue;
        }
        let name = name.strip_prefix("./").unwrap_or(&name).to_string();
        if name.is_empty() && kind.is_dir() {
            continue;
        }
        check_name(&name)?;
        match kind {
            tar::EntryType::Symlink => return Err(Refusal::Symlink(name).into()),
            tar::EntryType::Link => return Err(special(name, "a hard link")),
            tar::EntryType::Char | tar::EntryType::Block => {
                return Err(special(name, "a device"));
            }
            tar::EntryType::Fifo => return Err(special(name, "a FIFO")),
            kind if kind.is_dir() || kind == tar::EntryType::Regular => {}
            tar::EntryType::Continuous => return Err(special(name, "a contiguous file")),
            tar::EntryType::GNUSparse => return Err(special(name, "a sparse file")),
            _ => return Err(special(name, "of a kind tar extensions use")),
        }
        count += 1;
        if count > limits.max_entries {
            return Err(Refusal::TooManyEntries {
                count,
                limit: limits.max_entries,
            }
            .into());
        }
        let key = name.strip_suffix('/').unwrap_or(&name).to_string();
        if !seen.insert(key.clone()) {
            return Err(Refusal::Duplicate(name).into());
        }
        check_collision(&key, &mut folded_names)?;
        let target = into.join(&key);
        if kind.is_dir() {
            fs_err::create_dir_all(&target).map_err(Failure::Io)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            fs_err::create_dir_all(parent).map_err(Failure::Io)?;
        }
        let size = entry.header().size().map_err(corrupt)?;
        let budget = limits.max_total_bytes - written;
        if size > budget {
            return Err(Refusal::TooLarge {
                entry: name,
                limit: limits.max_total_bytes,
            }
            .into());
        }
        let mode = entry.header().mode().map_err(corrupt)?;
        let executable = mode & 0o111 != 0;
        let mut file =
            super::extract::create_with_mode(&target, if executable { 0o755 } else { 0o644 })
                .map_err(Failure::Io)?;
        let copied = std::io::copy(&mut (&mut entry).take(budget + 1), &mut file).map_err(|e| {
            Refusal::Corrupt {
                entry: name.clone(),
                message: e.to_string(),
            }
        })?;
        if copied != size {
            return Err(Refusal::Corrupt {
                entry: name,
                message: format!("its header says {size} bytes, and {copied} followed"),
            }
            .into());
        }
        written += copied;
    }
    if count == 0 {
        return Err(Refusal::Empty.into());
    }
    Ok(())
}

fn special(name: String, kind: &'static str) -> Failure {
    Refusal::SpecialFile { entry: name, kind }.into()
}

/// The skill folder in the unpacked layer at `top`, and the name to give
/// it: `top` itself when it holds `SKILL.md` (and `rooted` allows it),
/// else its one folder, which must hold `SKILL.md`.
fn find_skill(top: &Path, rooted: Rooted) -> Result<(PathBuf, String), Refusal> {
    let has_skill_md = |dir: &Path| dir.join("SKILL.md").is_file();
    if rooted == Rooted::Tree {
        return Ok((top.to_path_buf(), "layer".to_string()));
    }
    if rooted == Rooted::Anywhere && has_skill_md(top) {
        return Ok((top.to_path_buf(), "skill".to_string()));
    }
    let mut names: Vec<String> = std::fs::read_dir(top)
        .and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
        .map_err(|e| Refusal::NotTar(e.to_string()))?
        .iter()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let folders: Vec<&String> = names.iter().filter(|n| top.join(n).is_dir()).collect();
    let root = match rooted {
        Rooted::InFolder(Some(expected)) => expected.to_string(),
        _ => folders.first().map_or_else(String::new, |f| f.to_string()),
    };
    if let [only] = names.as_slice()
        && top.join(only).is_dir()
    {
        if *only != root {
            return Err(Refusal::WrongSkill {
                expected: root,
                found: only.clone(),
            });
        }
        let skill = top.join(only);
        if !has_skill_md(&skill) {
            return Err(Refusal::MissingSkillMd(root));
        }
        return Ok((skill, root));
    }
    let outside = names
        .iter()
        .find(|n| **n != root)
        .cloned()
        .unwrap_or_default();
    Err(Refusal::OutsideRoot {
        entry: outside,
        root,
    })
}

/// What the decompressed stream went past.
#[derive(Debug, Clone, Copy)]
enum Exceeded {
    /// The size limit.
    Size,
    /// The ratio limit, at this ratio.
    Ratio(u64),
}

/// A reader that counts the bytes it passes on and fails once they pass
/// `budget`, or once they exceed `ratio_limit`'s ratio to the compressed
/// size (past [`RATIO_CHECK_FLOOR`]); it remembers which.
struct Counted<R> {
    inner: R,
    read: u64,
    budget: u64,
    /// The compressed size and the highest ratio allowed.
    ratio_limit: Option<(u64, u64)>,
    exceeded: Option<Exceeded>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.budget {
            self.exceeded = Some(Exceeded::Size);
        } else if let Some((compressed, limit)) = self.ratio_limit
            && self.read > RATIO_CHECK_FLOOR
            && self.read / compressed > limit
        {
            self.exceeded = Some(Exceeded::Ratio(self.read / compressed));
        }
        match self.exceeded {
            Some(_) => Err(std::io::Error::other("the layer inflates past its limits")),
            None => Ok(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL_MD: &str = "---\nname: demo\ndescription: Demo. Use when testing.\n---\nBody.\n";

    /// One tar entry: its name, type and bytes.
    struct Entry<'a>(&'a str, tar::EntryType, &'a [u8]);

    fn tar_of(entries: &[Entry]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for Entry(name, kind, data) in entries {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(*kind);
            header.set_size(data.len() as u64);
            header.set_mode(if name.ends_with(".sh") { 0o755 } else { 0o644 });
            if *kind == tar::EntryType::Symlink || *kind == tar::EntryType::Link {
                header.set_link_name("SKILL.md").unwrap();
                header.set_size(0);
            }
            // Written raw: `append_data` refuses `..`, which attackers do not.
            let bytes = name.as_bytes();
            header.as_old_mut().name[..bytes.len()].copy_from_slice(bytes);
            header.set_cksum();
            builder.append(&header, *data).unwrap();
        }
        builder.into_inner().unwrap()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        use std::io::Write as _;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn extract(
        layer: &[u8],
        rooted: Rooted,
        limits: &Limits,
    ) -> (tempfile::TempDir, Result<PathBuf, ExtractError>) {
        let dir = tempfile::tempdir().unwrap();
        let gz = gzip(layer);
        let result = extract_layer(
            gz.as_slice(),
            gz.len() as u64,
            Compression::Gzip,
            rooted,
            "layer",
            dir.path(),
            limits,
        );
        (dir, result)
    }

    fn refusal(layer: &[u8]) -> String {
        refusal_within(layer, &Limits::default())
    }

    /// Why `layer` is refused within `limits`, checking that it leaves
    /// nothing behind.
    fn refusal_within(layer: &[u8], limits: &Limits) -> String {
        let (dir, result) = extract(layer, Rooted::Anywhere, limits);
        let error = result.unwrap_err();
        assert!(matches!(error, ExtractError::Refused { .. }), "{error}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "a refused layer leaves nothing behind"
        );
        error.to_string()
    }

    use tar::EntryType::{Directory as D, Regular as F};

    #[test]
    fn a_skill_in_its_folder_or_at_the_top_is_extracted() {
        let rooted = tar_of(&[
            Entry("demo/", D, b""),
            Entry("demo/SKILL.md", F, SKILL_MD.as_bytes()),
            Entry("demo/scripts/run.sh", F, b"#!/bin/sh\n"),
        ]);
        let (_dir, result) = extract(&rooted, Rooted::InFolder(Some("demo")), &Limits::default());
        let skill = result.unwrap();
        assert_eq!(skill.file_name().unwrap(), "demo");
        assert_eq!(
            std::fs::read_to_string(skill.join("SKILL.md")).unwrap(),
            SKILL_MD
        );
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(skill.join("scripts/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111);
        let flat = tar_of(&[
            Entry("./", D, b""),
            Entry("./SKILL.md", F, SKILL_MD.as_bytes()),
            Entry("./references/a.md", F, b"a"),
        ]);
        let (_dir, result) = extract(&flat, Rooted::Anywhere, &Limits::default());
        assert!(result.unwrap().join("references/a.md").is_file());
        // The Agent Skills layout wants the folder.
        let (_dir, result) = extract(&flat, Rooted::InFolder(None), &Limits::default());
        assert!(result.unwrap_err().to_string().contains("outside the"));
    }

    #[test]
    fn hostile_entries_are_refused_and_leave_nothing() {
        let skill = Entry("demo/SKILL.md", F, SKILL_MD.as_bytes());
        for (entries, expected) in [
            (vec![Entry("demo/../../x", F, b"x")], "'..'"),
            (vec![Entry("/etc/x", F, b"x")], "absolute path"),
            (vec![Entry("demo\\x", F, b"x")], "backslash"),
            (vec![Entry("demo/.git/config", F, b"x")], "version-control"),
            (
                vec![Entry("demo/link", tar::EntryType::Symlink, b"")],
                "symbolic link",
            ),
            (
                vec![Entry("demo/hard", tar::EntryType::Link, b"")],
                "hard link",
            ),
            (
                vec![Entry("demo/dev", tar::EntryType::Char, b"")],
                "a device",
            ),
            (
                vec![Entry("demo/fifo", tar::EntryType::Fifo, b"")],
                "a FIFO",
            ),
            (vec![Entry("demo/SKILL.md", F, b"again")], "more than once"),
            (vec![Entry("demo/skill.MD", F, b"x")], "collide"),
            (vec![Entry("other/x", F, b"x")], "outside"),
            (
                vec![Entry("demo/a\u{202E}b", F, b"x")],
                "control characters",
            ),
        ] {
            let mut all = vec![Entry(skill.0, skill.1, skill.2)];
            all.extend(entries);
            let message = refusal(&tar_of(&all));
            assert!(message.contains(expected), "{expected}: {message}");
        }
        assert!(refusal(&tar_of(&[Entry("demo/README.md", F, b"x")])).contains("SKILL.md"));
        assert!(refusal(&[]).contains("empty"));
        assert!(
            refusal(b"not a tar at all, but long enough to be read as a header block")
                .contains("tar")
        );
    }

    #[test]
    fn limits_on_count_size_and_ratio_hold() {
        let many: Vec<String> = (0..5).map(|i| format!("demo/{i}.md")).collect();
        let (big, bomb) = (vec![b'a'; 4096], vec![0u8; 8 * 1024 * 1024]);
        let cases: [(Vec<Entry>, Limits, &str); 3] = [
            (
                many.iter().map(|name| Entry(name, F, b"x")).collect(),
                Limits {
                    max_entries: 4,
                    ..Limits::default()
                },
                "more than the limit of 4",
            ),
            (
                vec![Entry("demo/big.txt", F, &big)],
                Limits {
                    max_total_bytes: 1000,
                    ..Limits::default()
                },
                "past the limit of 1000 bytes",
            ),
            (
                vec![Entry("demo/zeros", F, &bomb)],
                Limits::default(),
                "likely zip bomb",
            ),
        ];
        for (extra, limits, expected) in cases {
            let mut entries = vec![Entry("demo/SKILL.md", F, SKILL_MD.as_bytes())];
            entries.extend(extra);
            let message = refusal_within(&tar_of(&entries), &limits);
            assert!(message.contains(expected), "{expected}: {message}");
        }
    }
}
