//! OCI dependencies: the artifact a reference names, pulled from its
//! registry ([`crate::index::oci`]) and its layer extracted
//! ([`crate::store::untar`]) into a checkout, which is then checked and
//! staged as a git skill's export is ([`super::direct`]).

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::hint::Hinted;
use crate::index::oci::Settings;
use crate::manifest::oci_ref::OciPin;
use crate::store::extract::Limits;

/// A skill pulled from a registry and extracted.
pub(super) struct Exported {
    /// The skill's folder, in the checkout.
    pub dir: PathBuf,
    /// The manifest digest the lock pins.
    pub digest: String,
    /// The version the artifact's config gives, if any.
    pub version: Option<String>,
}

/// Pulls the artifact `pin` names in `repository` (the one of `skill`,
/// in a collection) and extracts its skill into a new folder of
/// `checkout`. A layer whose top folder and
/// `SKILL.md` name different skills is refused, as a `.skill` archive
/// would be.
pub(super) fn export(
    repository: &str,
    pin: &OciPin,
    skill: Option<&str>,
    checkout: &Path,
    settings: &Settings,
) -> anyhow::Result<Exported> {
    let pulled = crate::index::oci::pull(repository, pin, skill, settings)?;
    let label = format!("{repository}@{}", pulled.digest);
    let layer = std::io::BufReader::new(fs_err::File::open(&pulled.layer)?);
    let dir = crate::store::untar::extract_layer(
        layer,
        pulled.layer_size,
        pulled.compression,
        pulled.rooted(),
        &label,
        checkout,
        &Limits::default(),
    )?;
    if pulled.in_folder
        && let Ok(skill) = crate::skill::load_skill(&dir)
        && dir
            .file_name()
            .is_some_and(|folder| *folder != *skill.meta.name)
    {
        bail!(
            Hinted::new(format!(
                "refusing {label}: its layer's folder '{}' holds a SKILL.md that names the skill '{}'",
                dir.file_name().unwrap_or_default().to_string_lossy(),
                skill.meta.name
            ))
            .hint("the artifact is broken or built to attack: do not install it, and tell its publisher")
        );
    }
    Ok(Exported {
        dir,
        digest: pulled.digest,
        version: pulled.version,
    })
}
