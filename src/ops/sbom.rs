//! `skillpkg sbom`: what a project has installed, as a software bill of
//! materials read from `skills.lock` alone: every skill with its source,
//! version, hashes, signer and dependencies, in CycloneDX 1.6 JSON or SPDX
//! 2.3 JSON.
//!
//! The documents are deterministic for one lock: components in the lock's
//! order, a serial number and namespace derived from the lock's content,
//! and SPDX's required creation time taken from `SOURCE_DATE_EPOCH` when
//! it is set (CycloneDX's is optional and left out).

use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

use crate::manifest::lock::{LockedSkill, Lockfile};

/// The document formats `sbom` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// CycloneDX 1.6, JSON.
    CycloneDx,
    /// SPDX 2.3, JSON.
    Spdx,
}

/// The bill of materials of `lock`, for the project named `project`,
/// made at `created` (seconds since the epoch; SPDX records it).
pub(crate) fn sbom(project: &str, lock: &Lockfile, format: Format, created: u64) -> Value {
    match format {
        Format::CycloneDx => cyclonedx(project, lock),
        Format::Spdx => spdx(project, lock, created),
    }
}

/// A UUID made from the lock's content (RFC 4122 layout, version 5 bits
/// set), so the same lock always gives the same document id.
fn content_uuid(project: &str, lock: &Lockfile) -> String {
    let mut hasher = Sha256::new();
    hasher.update(project.as_bytes());
    hasher.update([0]);
    hasher.update(lock.to_text().as_bytes());
    let mut bytes: [u8; 16] = hasher.finalize()[..16].try_into().expect("16 bytes");
    bytes[6] = (bytes[6] & 0x0f) | 0x50;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = crate::store::hash::hex(&bytes);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// Where a skill came from, as a URL naming its pin when it has one, with
/// the CycloneDX type of that reference.
fn location(skill: &LockedSkill) -> Option<(String, &'static str)> {
    crate::ops::sources::of_pin(&skill.source).reference(&skill.source)
}

/// The archive's sha256 in hex, for registry packages.
fn archive_sha256(skill: &LockedSkill) -> Option<&str> {
    skill.checksum.as_deref()?.strip_prefix("sha256:")
}

/// `(group, name)`: `org/name` splits; a plain name has no group.
fn group_and_name(skill: &LockedSkill) -> (Option<&str>, &str) {
    match skill.name.split_once('/') {
        Some((org, name)) => (Some(org), name),
        None => (None, &skill.name),
    }
}

/// The names some skill of the lock depends on: the rest the project
/// asked for itself. Found once per document, not once per skill.
fn depended_on(lock: &Lockfile) -> std::collections::BTreeSet<&str> {
    lock.skills()
        .iter()
        .flat_map(|s| s.dependencies.iter().map(String::as_str))
        .collect()
}

fn cyclonedx(project: &str, lock: &Lockfile) -> Value {
    let reference = |name: &str| format!("skill:{name}");
    let components: Vec<Value> = lock
        .skills()
        .iter()
        .map(|skill| {
            let (group, name) = group_and_name(skill);
            let mut component = json!({
                "type": "library",
                "bom-ref": reference(&skill.name),
                "name": name,
                "version": skill.version,
            });
            if let Some(group) = group {
                component["group"] = json!(group);
            }
            if let Some(sha256) = archive_sha256(skill) {
                component["hashes"] = json!([{ "alg": "SHA-256", "content": sha256 }]);
            }
            if let Some((url, kind)) = location(skill) {
                component["externalReferences"] = json!([{ "type": kind, "url": url }]);
            }
            let mut properties = vec![
                json!({ "name": "skillpkg:source", "value": skill.source.to_string() }),
                json!({ "name": "skillpkg:tree", "value": skill.tree }),
            ];
            if let Some(signer) = &skill.signer {
                properties.push(json!({ "name": "skillpkg:signer", "value": signer.to_string() }));
            }
            component["properties"] = json!(properties);
            component
        })
        .collect();
    let depended = depended_on(lock);
    let mut dependencies = vec![json!({
        "ref": "project",
        "dependsOn": lock
            .skills()
            .iter()
            .filter(|s| !depended.contains(s.name.as_str()))
            .map(|s| reference(&s.name))
            .collect::<Vec<_>>(),
    })];
    dependencies.extend(lock.skills().iter().map(|skill| {
        json!({
            "ref": reference(&skill.name),
            "dependsOn": skill.dependencies.iter().map(|d| reference(d)).collect::<Vec<_>>(),
        })
    }));
    json!({
        "$schema": "http://cyclonedx.org/schema/bom-1.6.schema.json",
        "bomFormat": "CycloneDX",
        "specVersion": "1.6",
        "serialNumber": format!("urn:uuid:{}", content_uuid(project, lock)),
        "version": 1,
        "metadata": {
            "tools": { "components": [{
                "type": "application",
                "name": "skillpkg",
                "version": env!("CARGO_PKG_VERSION"),
            }] },
            "component": { "type": "application", "bom-ref": "project", "name": project },
        },
        "components": components,
        "dependencies": dependencies,
    })
}

/// An SPDX id for the skill at `index` of the lock: SPDX ids hold only
/// letters, digits, `.` and `-`, so other characters become `-`, and the
/// index keeps two names that differ only there apart.
fn spdx_id(index: usize, name: &str) -> String {
    let safe: String = name
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                true => c,
                false => '-',
            },
        )
        .collect();
    format!("SPDXRef-Skill-{index}-{safe}")
}

/// SPDX's download location of a skill: what its kind can name (a git
/// skill from a server in SPDX's VCS form), anything else `NOASSERTION`
/// (a registry package's archive URL is the index's to give, and the lock
/// keeps only the index).
fn spdx_download_location(skill: &LockedSkill) -> String {
    crate::ops::sources::of_pin(&skill.source)
        .spdx_location(&skill.source)
        .unwrap_or_else(|| "NOASSERTION".to_string())
}

fn spdx(project: &str, lock: &Lockfile, created: u64) -> Value {
    let ids: std::collections::BTreeMap<&str, String> = lock
        .skills()
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), spdx_id(i, &s.name)))
        .collect();
    let packages: Vec<Value> = lock
        .skills()
        .iter()
        .map(|skill| {
            let mut package = json!({
                "SPDXID": ids[skill.name.as_str()],
                "name": skill.name,
                "versionInfo": skill.version,
                "downloadLocation": spdx_download_location(skill),
                "filesAnalyzed": false,
                "licenseConcluded": "NOASSERTION",
                "licenseDeclared": "NOASSERTION",
                "copyrightText": "NOASSERTION",
                "supplier": "NOASSERTION",
            });
            if let Some(sha256) = archive_sha256(skill) {
                package["checksums"] = json!([{ "algorithm": "SHA256", "checksumValue": sha256 }]);
            }
            let mut comment = format!("skillpkg source {}; tree {}", skill.source, skill.tree);
            if let Some(signer) = &skill.signer {
                comment.push_str(&format!("; signed by {signer}"));
            }
            package["comment"] = json!(comment);
            package
        })
        .collect();
    let depended = depended_on(lock);
    let mut relationships: Vec<Value> = lock
        .skills()
        .iter()
        .filter(|s| !depended.contains(s.name.as_str()))
        .map(|skill| {
            json!({
                "spdxElementId": "SPDXRef-DOCUMENT",
                "relationshipType": "DESCRIBES",
                "relatedSpdxElement": ids[skill.name.as_str()],
            })
        })
        .collect();
    for skill in lock.skills() {
        for dependency in &skill.dependencies {
            if let Some(target) = ids.get(dependency.as_str()) {
                relationships.push(json!({
                    "spdxElementId": ids[skill.name.as_str()],
                    "relationshipType": "DEPENDS_ON",
                    "relatedSpdxElement": target,
                }));
            }
        }
    }
    json!({
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": format!("{project} skills"),
        "documentNamespace": format!("https://spdx.org/spdxdocs/skillpkg-{}", content_uuid(project, lock)),
        "creationInfo": {
            "created": crate::time::utc_rfc3339(created),
            "creators": [format!("Tool: skillpkg-{}", env!("CARGO_PKG_VERSION"))],
        },
        "packages": packages,
        "relationships": relationships,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spdx_ids_hold_only_what_spdx_allows_and_stay_apart() {
        assert_eq!(spdx_id(0, "acme/pdf_x"), "SPDXRef-Skill-0-acme-pdf-x");
        assert_ne!(spdx_id(0, "acme/pdf"), spdx_id(1, "acme-pdf"));
    }
}
