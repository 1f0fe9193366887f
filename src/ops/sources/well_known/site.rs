//! Skills a site's Agent Skills discovery index lists
//! ([`crate::index::well_known`]): the index read, the entry's artifact
//! fetched (or taken from the cache by the digest the lock pins), checked
//! against the index's digest and the lock's, and unpacked into a
//! checkout, which is then checked and staged as every fetched tree is
//! (`ops::install`).

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::hint::{Hinted, shell_quote};
use crate::index::well_known::{
    Artifact, Client, Discovered, Entry, Index, MAX_FILE, Sites, Tried, cached, keep,
};
use crate::store::hash::sha256_hex;
use crate::store::limits::Limits;
use crate::store::untar::{Compression, Rooted};

/// How a run reads sites: the indexes it read, the cache, and whether
/// it may ask the network.
#[derive(Clone, Copy)]
pub(crate) struct Reading<'a> {
    /// The indexes this run read.
    pub sites: &'a Sites,
    /// The cache directory.
    pub cache: &'a Path,
    /// Read the cache only.
    pub offline: bool,
    /// What a skill may hold.
    pub limits: Limits,
}

/// A skill fetched from a site and unpacked.
pub(super) struct Exported {
    /// The skill's folder, in the checkout.
    pub dir: PathBuf,
    /// `sha256:<hex>` of the artifact installed (none for an entry whose
    /// files come one by one).
    pub digest: Option<String>,
}

/// The index of `site`, as this run (`sites`) first read it; an error
/// listing what was asked when the site has none.
pub(crate) fn read_index(sites: &Sites, site: &str) -> anyhow::Result<Index> {
    match sites.discover(site)? {
        Discovered::Found(index) => Ok(index),
        Discovered::NotFound(tried) => Err(no_index(site, &tried).into()),
    }
}

/// The error for a site without an index: each URL asked and its answer.
pub(crate) fn no_index(site: &str, tried: &[Tried]) -> Hinted {
    let list: String = tried
        .iter()
        .map(|t| format!("\n  {}: {}", t.url, t.answer))
        .collect();
    Hinted::new(format!(
        "{site} publishes no agent-skills index; asked:{list}"
    ))
    .hint("a site publishes its skills at /.well-known/agent-skills/index.json (the Agent Skills discovery RFC); give the index's own URL if it is elsewhere")
}

/// The entry `skill` of `index`; an error naming the skills it has.
pub(crate) fn entry<'i>(index: &'i Index, skill: &str) -> anyhow::Result<&'i Entry> {
    if let Some(entry) = index.get(skill)? {
        return Ok(entry);
    }
    let names: Vec<&str> = index.skills.iter().map(|e| e.name.as_str()).collect();
    let error = Hinted::new(format!("{} lists no skill '{skill}'", index.url));
    bail!(
        match crate::hint::did_you_mean(skill, names.iter().copied()) {
            Some(meant) => error.hint(format!("did you mean '{meant}'?")),
            None if names.is_empty() => error.hint("it lists no skill skillpkg can install"),
            None => error.hint(format!("it lists {}", names.join(", "))),
        }
    )
}

/// The entries of `index` that `patterns` pick (globs such as `pdf*`;
/// all of them when there are none). A pattern that picks nothing is an
/// error naming the skills there are, or why the one it names is set
/// aside.
pub(crate) fn pick<'i>(index: &'i Index, patterns: &[String]) -> anyhow::Result<Vec<&'i Entry>> {
    use anyhow::Context as _;
    if patterns.is_empty() {
        if index.skills.is_empty() {
            let mut error =
                Hinted::new(format!("{} lists no skill skillpkg can install", index.url));
            for skipped in &index.skipped {
                error = error.hint(format!("skipped {}", skipped.why));
            }
            bail!(error);
        }
        return Ok(index.skills.iter().collect());
    }
    let mut picked: Vec<&Entry> = Vec::new();
    for pattern in patterns {
        let glob = globset::Glob::new(pattern)
            .with_context(|| format!("--skill {pattern:?} is not a valid pattern"))?
            .compile_matcher();
        let matching: Vec<&Entry> = index
            .skills
            .iter()
            .filter(|e| glob.is_match(&e.name))
            .collect();
        if matching.is_empty() {
            entry(index, pattern)?;
        }
        for found in matching {
            if !picked.iter().any(|p| p.name == found.name) {
                picked.push(found);
            }
        }
    }
    Ok(picked)
}

/// Fetches the skill `skill` of the index of `site` and unpacks it into a
/// new folder of `checkout`. `locked` is the digest the lock pins for it:
/// the index must still name it and the bytes must match it (a site that
/// changed what it serves is refused: only `update` moves the pin). With
/// `offline`, only the cache is read, by that digest.
pub(super) fn export(
    site: &str,
    skill: &str,
    locked: Option<&str>,
    checkout: &Path,
    reading: &Reading,
) -> anyhow::Result<Exported> {
    let Reading {
        sites,
        cache,
        offline,
        limits,
    } = *reading;
    if offline {
        let Some(bytes) = locked.and_then(|digest| cached(cache, digest)) else {
            bail!(
                Hinted::new(format!(
                    "the skill '{skill}' of {site} is not in the cache, and --offline forbids reading the site"
                ))
                .hint("run once without --offline (or --frozen) to fill the cache")
            );
        };
        let digest = locked.map(str::to_string);
        let label = format!("{site} ({})", digest.as_deref().unwrap_or_default());
        let dir = match sniff(&bytes) {
            Some(_) => unpack_archive(&bytes, &label, checkout, &limits)?,
            None => write_skill_md(&bytes, skill, checkout)?,
        };
        check_named(&dir, skill, site)?;
        return Ok(Exported { dir, digest });
    }
    let index = read_index(sites, site)?;
    let client = Client::new()?;
    let entry = entry(&index, skill)?;
    if let (Some(locked), Some(now)) = (locked, entry.artifact.digest())
        && locked != now
    {
        bail!(changed(&index.url, skill, locked, now));
    }
    let (dir, digest) = match &entry.artifact {
        Artifact::SkillMd { url, digest } | Artifact::Archive { url, digest } => {
            let archive = matches!(entry.artifact, Artifact::Archive { .. });
            let limit = match archive {
                true => limits.max_archive_bytes(),
                false => MAX_FILE,
            };
            let known = digest.as_deref().or(locked);
            let bytes = match known.and_then(|d| cached(cache, d)) {
                Some(bytes) => bytes,
                None => client.fetch(url, limit, &index.url)?,
            };
            let actual = format!("sha256:{}", sha256_hex(&bytes));
            if let Some(expected) = digest
                && *expected != actual
            {
                bail!(
                    Hinted::new(format!(
                        "digest mismatch for {url}: {} says {expected}, but it is {actual}",
                        index.url
                    ))
                    .hint("the file or the index was tampered with or is being updated; nothing was installed")
                );
            }
            if let Some(locked) = locked
                && locked != actual
            {
                bail!(changed(url, skill, locked, &actual));
            }
            keep(cache, &bytes)?;
            let label = format!("{url} ({actual})");
            let dir = match archive {
                true => unpack_archive(&bytes, &label, checkout, &limits)?,
                false => write_skill_md(&bytes, skill, checkout)?,
            };
            (dir, Some(actual))
        }
        Artifact::Files { base, files } => (
            fetch_files(&client, &index, base, files, skill, checkout, &limits)?,
            None,
        ),
    };
    check_named(&dir, skill, &index.url)?;
    Ok(Exported { dir, digest })
}

/// The error for a site whose artifact is no longer what the lock pins.
fn changed(url: &str, skill: &str, locked: &str, now: &str) -> Hinted {
    Hinted::new(format!(
        "{url}: the skill '{skill}' is now {now}, but skills.lock pins {locked}; the site changed what it serves"
    ))
    .hint("nothing was installed; a site may change a skill at any time, so skills.lock pins what was installed")
    .hint(format!(
        "if you trust the change, `skillpkg update {}` moves the pin (and shows what changed)",
        shell_quote(skill)
    ))
}

/// How an archive's bytes say it is packed: gzip (a `.tar.gz`) or zip;
/// `None` for anything else. The bytes decide, not the URL or the
/// `Content-Type`: they are what the digest vouches for.
fn sniff(bytes: &[u8]) -> Option<Packing> {
    match bytes {
        [0x1f, 0x8b, ..] => Some(Packing::TarGz),
        [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => Some(Packing::Zip),
        _ => None,
    }
}

/// How an archive is packed.
enum Packing {
    TarGz,
    Zip,
}

/// Unpacks the archive `bytes` into a new folder of `checkout`, as
/// strictly as a `.skill` (no links, `..`, absolute paths, bombs).
fn unpack_archive(
    bytes: &[u8],
    label: &str,
    checkout: &Path,
    limits: &Limits,
) -> anyhow::Result<PathBuf> {
    match sniff(bytes) {
        Some(Packing::TarGz) => Ok(crate::store::untar::extract_layer(
            bytes,
            bytes.len() as u64,
            Compression::Gzip,
            Rooted::Anywhere,
            label,
            checkout,
            limits,
        )?),
        Some(Packing::Zip) => {
            let unpacking = checkout.join(".unpacking");
            fs_err::create_dir_all(&unpacking)?;
            let file = unpacking.join("archive.zip");
            fs_err::write(&file, bytes)?;
            let dir = crate::store::extract::extract_tree(&file, label, checkout, limits)?;
            fs_err::remove_dir_all(&unpacking)?;
            Ok(dir)
        }
        None => bail!(
            Hinted::new(format!(
                "refusing {label}: it is neither a .tar.gz nor a .zip"
            ))
            .hint("an archive skill of an agent-skills index is a .tar.gz or a .zip; tell the site's owner")
        ),
    }
}

/// Writes `bytes` as the `SKILL.md` of a new folder `skill` of `checkout`.
fn write_skill_md(bytes: &[u8], skill: &str, checkout: &Path) -> anyhow::Result<PathBuf> {
    let dir = checkout.join(skill);
    fs_err::create_dir_all(&dir)?;
    fs_err::write(dir.join("SKILL.md"), bytes)?;
    Ok(dir)
}

/// Fetches the files of an older entry one by one, from `base`, into a
/// new folder `skill` of `checkout`, within the limits of an archive.
fn fetch_files(
    client: &Client,
    index: &Index,
    base: &str,
    files: &[String],
    skill: &str,
    checkout: &Path,
    limits: &Limits,
) -> anyhow::Result<PathBuf> {
    let base_url = reqwest::Url::parse(base)?;
    let dir = checkout.join(skill);
    fs_err::create_dir_all(&dir)?;
    let mut total: u64 = 0;
    for path in files {
        let url = base_url.join(path)?;
        // The paths were checked when the index was read; what the parser
        // made of them must still lie under the skill's folder.
        if !url.as_str().starts_with(base) {
            bail!(
                "{}: the file {path:?} leads out of {base}; refused",
                index.url
            );
        }
        let budget = (limits.max_total_bytes - total).min(MAX_FILE);
        let bytes = client.fetch(url.as_str(), budget, &index.url)?;
        total += bytes.len() as u64;
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            fs_err::create_dir_all(parent)?;
        }
        fs_err::write(&target, &bytes)?;
    }
    Ok(dir)
}

/// Refuses a skill whose `SKILL.md` names another skill than the index
/// lists it as: the index would install one skill under another's name.
fn check_named(dir: &Path, skill: &str, index: &str) -> anyhow::Result<()> {
    if let Ok(loaded) = crate::skill::load_skill(dir)
        && loaded.meta.name != skill
    {
        bail!(
            Hinted::new(format!(
                "refusing the skill '{skill}' of {index}: its SKILL.md names the skill '{}'",
                loaded.meta.name
            ))
            .hint("the site's index is broken or built to attack: do not install it, and tell the site's owner")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archives_are_known_by_their_first_bytes() {
        assert!(matches!(sniff(&[0x1f, 0x8b, 8, 0]), Some(Packing::TarGz)));
        assert!(matches!(sniff(b"PK\x03\x04rest"), Some(Packing::Zip)));
        assert!(sniff(b"---\nname: x\n---\n").is_none());
        assert!(sniff(b"").is_none());
    }
}
