//! `skillpkg promote ORG/NAME@VERSION --to CHANNEL`: moving a published
//! version to another channel, signed anew by the org.

use std::path::Path;

use anyhow::bail;

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::channel::{self, Channel};
use crate::index::oci::{Namespace, is_oci_index};
use crate::index::{IndexConfig, PackageName};
use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, Pins};
use crate::store::signing::SigningKey;

/// What `promote` was asked to do.
pub struct PromoteRequest<'a> {
    /// `org/name@version`.
    pub spec: &'a str,
    /// The index: a folder, a git repository or URL, an OCI namespace.
    pub index: &'a str,
    /// The channel to move to.
    pub to: Channel,
    /// For `deprecated`: what to use instead (`org/name` or
    /// `org/name@requirement`).
    pub replacement: Option<&'a str>,
    /// The org's minisign secret key file.
    pub key: &'a Path,
    /// Until when the record counts for new installs (RFC 3339, or a
    /// span from now such as `30d`), when set.
    pub expires: Option<&'a str>,
}

/// What `promote` did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Promoted {
    /// `org/name`.
    pub package: String,
    /// The version.
    pub version: String,
    /// Where it stood before, as its signatures show.
    pub from: Channel,
    /// Where it stands now.
    pub to: Channel,
    /// False when it was there already: nothing was written.
    pub changed: bool,
    /// For a mirrored version: where it came from, for whoever promotes
    /// it to see.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<UpstreamShown>,
}

/// A mirrored version's origin, as `promote` says it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct UpstreamShown {
    /// The upstream source.
    pub source: String,
    /// The commit or digest it was taken at.
    pub revision: Option<String>,
    /// Whether a key of the org signed the record: an index host can
    /// write one, but not sign it.
    pub signed: bool,
}

/// Moves a version to `request.to`, appending a record signed with the
/// org's key to its entry (on an OCI index, to the package's signed
/// state). Refuses a key that is not one of the org's in the index.
pub fn promote(request: &PromoteRequest<'_>, dirs: &Dirs) -> anyhow::Result<Promoted> {
    let (package, version) = parse_spec(request.spec)?;
    let replacement = check_replacement(request)?;
    let replacement = replacement.as_deref();
    let expires = request
        .expires
        .map(|text| crate::index::freshness::expires_from(text, jiff::Timestamp::now()))
        .transpose()?;
    if let Some(at) = &expires
        && at
            .parse::<jiff::Timestamp>()
            .is_ok_and(|at| at <= jiff::Timestamp::now())
    {
        bail!(
            "--expires {at} is in the past: no project would take the version; give a later time or a span such as 30d"
        );
    }
    let key = SigningKey::load(request.key)?;
    let mut outcome = None;
    let mut upstream = None;
    let mut change = |entry: &mut crate::index::IndexEntry, config: &IndexConfig| {
        let keys = config.keys.get(&package.org).cloned().unwrap_or_default();
        crate::ops::provenance::keys::check_org_key(&key, &package, &keys, request.index)?;
        upstream = entry.upstream.as_ref().map(|u| UpstreamShown {
            source: u.source.clone(),
            revision: u.at_revision().map(str::to_string),
            signed: check(
                Claim::Upstream {
                    upstream: u,
                    package: &entry.name,
                    version: &entry.vers,
                    cksum: &entry.cksum,
                },
                &Pins::of_keys(&keys),
            )
            .is_signed(),
        });
        let index = identity_of(config, request.index)?;
        let moved = channel::Move {
            channel: request.to,
            replacement,
            index: Some(index),
            seq: None,
            expires: expires.as_deref(),
        };
        let moved = crate::ops::provenance::channels::promote(entry, &key, moved, &keys)?;
        let from = match &moved {
            Some(before) => before.channel,
            None => request.to,
        };
        outcome = Some((from, moved.is_some()));
        anyhow::Ok(moved.is_some())
    };
    if is_oci_index(request.index) {
        let namespace = Namespace::new(request.index, super::publish::place(dirs))?;
        let config = namespace.config()?;
        namespace.set_channel(&package, &version, &key, &config, |entry| {
            change(entry, &config)
        })?;
    } else {
        super::publish::change_index(request.index, &dirs.cache, |dir| {
            let config = dir.config()?;
            dir.change_entry(&package, &version, |entry| change(entry, &config))?;
            Ok(format!("Promote {package}@{version} to {}", request.to))
        })?;
    }
    let (from, changed) = outcome.expect("the version's entry was changed or refused");
    Ok(Promoted {
        package: package.to_string(),
        version,
        from,
        to: request.to,
        changed,
        upstream,
    })
}

/// `org/name@version`, checked.
fn parse_spec(spec: &str) -> anyhow::Result<(PackageName, String)> {
    let Some((name, version)) = spec.split_once('@') else {
        bail!(
            Hinted::new(format!("expected org/name@version, got '{spec}'"))
                .hint("name the version to move, like acme/pdf-processing@1.2.0")
        );
    };
    let package: PackageName = name.parse()?;
    semver::Version::parse(version)
        .map_err(|e| anyhow::anyhow!("invalid version '{version}': {e}"))?;
    Ok((package, version.to_string()))
}

/// The identity the index's `config.json` names, which every record is
/// signed for; an index from before identities is named first.
fn identity_of<'c>(config: &'c IndexConfig, index: &str) -> anyhow::Result<&'c str> {
    match config.identity.as_deref() {
        Some(identity) => Ok(identity),
        None => bail!(
            Hinted::new(format!(
                "{index} names no identity in its config.json, so a channel record could not be bound to it"
            ))
            .hint(format!(
                "name it once, as projects reach it: `skillpkg index init {} --identity URL`",
                crate::hint::shell_quote(index)
            ))
        ),
    }
}

/// The replacement `request` names, which only a deprecation takes and
/// which must be `org/name` or `org/name@requirement` (written without
/// spaces, as records carry it).
fn check_replacement(request: &PromoteRequest<'_>) -> anyhow::Result<Option<String>> {
    let Some(replacement) = request.replacement else {
        return Ok(None);
    };
    if request.to != Channel::Deprecated {
        bail!(
            "--replacement names what replaces a deprecated version; it goes with --to deprecated"
        );
    }
    let (name, req) = replacement
        .split_once('@')
        .map_or((replacement, None), |(n, r)| (n, Some(r)));
    name.parse::<PackageName>()?;
    if let Some(req) = req {
        semver::VersionReq::parse(req).map_err(|e| {
            anyhow::anyhow!("--replacement {replacement}: invalid version requirement: {e}")
        })?;
    }
    Ok(Some(replacement.split_whitespace().collect()))
}
