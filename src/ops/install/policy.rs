//! The org policy a project is under (DESIGN §6): its default registry's
//! signed `policy.toml`, pinned in `skills.lock` on first use as keys
//! are. A later index that drops the policy, or serves one its org did
//! not sign, is refused; one the org signed anew replaces the pin.

use anyhow::bail;

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::policy::{IndexPolicy, verified};
use crate::index::source::{Registry, open_registry};
use crate::manifest::Manifest;
use crate::manifest::channel::Channel;
use crate::manifest::lock::{LockedSigner, Lockfile, PinnedPolicy};
use crate::manifest::source_id::SourceId;
use crate::project::Project;

/// A project's policy, checked.
pub(crate) struct ProjectPolicy {
    /// The policy as its index serves it.
    pub policy: IndexPolicy,
    /// The index's label, as `skills.lock` names it.
    pub index: String,
    /// The org's keys the index lists, for a lock that pins none yet.
    pub listed_keys: Vec<String>,
}

/// The index `manifest` makes its default, opened; `None` for the
/// built-in one.
pub(crate) fn default_registry(
    project: &Project,
    manifest: &Manifest,
    dirs: &Dirs,
    options: &crate::ops::install::InstallOptions,
) -> anyhow::Result<Option<Registry>> {
    let Some(default) = manifest.registries.get("default") else {
        return Ok(None);
    };
    open_registry(
        Some(&default.index),
        &project.dir,
        dirs,
        options.offline,
        options.insecure_registries,
    )
    .map(Some)
}

/// The policy of `registry`, the project's default index, checked
/// against the keys `old_lock` pins for its org (else those the index
/// lists) and against the pin `old_lock` holds. `None` when it has no
/// policy (and none is pinned). The policy is read only when the index's
/// `config.json` announces it, or the lock pins one.
pub(crate) fn for_project(
    registry: &Registry,
    old_lock: &Lockfile,
) -> anyhow::Result<Option<ProjectPolicy>> {
    let pinned = old_lock.policies.get(&registry.label);
    let files = match (&registry.config.policy, pinned) {
        (None, None) => None,
        _ => registry.policy_files()?,
    };
    let Some(files) = files else {
        if let Some(pinned) = pinned {
            bail!(
                Hinted::new(format!(
                    "the index {} no longer serves the signed policy.toml that skills.lock pins (org '{}', {})",
                    registry.label, pinned.org, pinned.digest
                ))
                .hint("an index cannot drop its org's policy: ask the org; if it really did, delete the index's line under [policies] in skills.lock")
            );
        }
        return Ok(None);
    };
    let keys_of = |org: &str| match old_lock.keys.get(org).filter(|k| !k.is_empty()) {
        Some(keys) => keys.clone(),
        None => registry.config.keys.get(org).cloned().unwrap_or_default(),
    };
    let policy = verified(
        &files.text,
        files.signature.as_deref(),
        &files.origin,
        keys_of,
    )?;
    if let Some(pinned) = pinned {
        check_against_pin(&policy, pinned, &registry.label)?;
    }
    if let Some(announced) = &registry.config.policy
        && *announced != policy.digest
    {
        bail!(
            Hinted::new(format!(
                "{} is not the policy the index's config.json announces ({announced})",
                files.origin
            ))
            .hint("the index is being changed, or was changed by hand: try again, and tell its maintainers if it persists")
        );
    }
    let listed_keys = registry
        .config
        .keys
        .get(&policy.policy.org)
        .cloned()
        .unwrap_or_default();
    Ok(Some(ProjectPolicy {
        policy,
        index: registry.label.clone(),
        listed_keys,
    }))
}

/// Refuses `policy` when it is not the pinned one and may not replace it:
/// another org's (the org decides whose keys check it), or not newer.
fn check_against_pin(
    policy: &IndexPolicy,
    pinned: &PinnedPolicy,
    index: &str,
) -> anyhow::Result<()> {
    if policy.policy.org != pinned.org {
        bail!(
            Hinted::new(format!(
                "{} names org '{}', but skills.lock pins org '{}''s policy for {index}",
                policy.origin, policy.policy.org, pinned.org
            ))
            .hint("an index cannot hand its projects to another org's policy: ask the org; if it really did, delete the index's line under [policies] in skills.lock")
        );
    }
    if policy.digest != pinned.digest && policy.policy.serial <= pinned.serial {
        bail!(
            Hinted::new(format!(
                "{} has serial {}, and skills.lock pins org '{}''s policy with serial {} ({}): a new policy has a higher serial",
                policy.origin, policy.policy.serial, pinned.org, pinned.serial, pinned.digest
            ))
            .hint("the index serves an older policy, or one changed without raising its serial: ask the org to sign it with a higher `serial`")
        );
    }
    Ok(())
}

impl ProjectPolicy {
    /// Pins the policy in `lock`, with its org's keys when the lock pins
    /// none yet (so that a policy signed anew must be signed by them).
    pub(crate) fn pin(&self, lock: &mut Lockfile) {
        lock.policies.insert(
            self.index.clone(),
            PinnedPolicy {
                org: self.policy.policy.org.clone(),
                digest: self.policy.digest.clone(),
                serial: self.policy.policy.serial,
            },
        );
        let org = &self.policy.policy.org;
        let keys = lock.keys.entry(org.clone()).or_default();
        if keys.is_empty() {
            keys.extend(self.listed_keys.iter().cloned());
        }
    }

    /// Refuses `asked` for `name` when it is below the lowest channel the
    /// policy lets members use.
    pub(crate) fn check_channel(&self, name: &str, asked: Channel) -> anyhow::Result<()> {
        let Some(lowest) = self.policy.policy.lowest_channel else {
            return Ok(());
        };
        if !lowest.admits(asked) {
            bail!(self.policy.refusal(
                &format!("the {asked} channel for {name}"),
                &format!("members may use the {lowest} channel and above")
            ));
        }
        Ok(())
    }

    /// Whether versions must carry channel signatures.
    pub(crate) fn requires_channel_signatures(&self) -> bool {
        self.policy.policy.require_channel_signatures
    }

    /// The scanner rules no waiver accepts.
    pub(crate) fn unwaivable(&self) -> &[String] {
        &self.policy.policy.unwaivable
    }

    /// Refuses the skill `name` from `source`, verified as `signer`, when
    /// the policy does not allow its source or signer. A project's own
    /// path skills are its code, under review with it: always allowed.
    pub(crate) fn check_skill(
        &self,
        name: &str,
        source: &SourceId,
        signer: Option<&LockedSigner>,
    ) -> Result<(), Hinted> {
        let policy = &self.policy.policy;
        let Some(place) = place_of(source) else {
            return Ok(());
        };
        if let Some(allowed) = &policy.allowed_sources
            && place != self.index
            && !allowed.iter().any(|prefix| under(&place, prefix))
        {
            return Err(self.policy.refusal(
                &format!("{name} from {place}"),
                &format!(
                    "members may install from {} only",
                    self.allowed_list(allowed)
                ),
            ));
        }
        match signer {
            None if policy.require_signatures => Err(self.policy.refusal(
                &format!("{name} from {place}"),
                "it is not signed, and every skill must be",
            )),
            Some(signer) if !policy.signers.is_empty() => {
                let allowed = signer
                    .minisign_key()
                    .is_some_and(|key| policy.signers.iter().any(|s| s == key));
                match allowed {
                    true => Ok(()),
                    false => Err(self.policy.refusal(
                        &format!("{name} from {place}"),
                        &format!("it is signed by {signer}, not by a signer the policy names"),
                    )),
                }
            }
            _ => Ok(()),
        }
    }

    fn allowed_list(&self, allowed: &[String]) -> String {
        let mut all = vec![self.index.clone()];
        all.extend(allowed.iter().cloned());
        all.join(", ")
    }
}

/// Whether `place` is `prefix` or lies under it, at a `/`, `:` or `#`
/// boundary: `https://github.com/corp` does not let in
/// `https://github.com/corporate-evil/x`.
fn under(place: &str, prefix: &str) -> bool {
    let Some(rest) = place.strip_prefix(prefix) else {
        return false;
    };
    rest.is_empty() || prefix.ends_with(['/', ':', '#']) || rest.starts_with(['/', ':', '#'])
}

/// Where a skill comes from, as policies name sources: the index, the
/// repository, `oci://REPO`, the site; `None` for a path skill.
fn place_of(source: &SourceId) -> Option<String> {
    match source {
        SourceId::Registry { index } => Some(index.clone()),
        SourceId::Path { .. } => None,
        SourceId::Git { origin, .. } => Some(origin.url.clone()),
        SourceId::Oci { origin, .. } => Some(format!("oci://{}", origin.repository)),
        SourceId::WellKnown { origin, .. } => Some(origin.site.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::under;

    #[test]
    fn a_source_prefix_ends_at_a_boundary() {
        assert!(under(
            "https://github.com/corp/lint",
            "https://github.com/corp"
        ));
        assert!(under(
            "https://github.com/corp/lint",
            "https://github.com/corp/"
        ));
        assert!(under("https://github.com/corp", "https://github.com/corp"));
        assert!(!under(
            "https://github.com/corporate-evil/x",
            "https://github.com/corp"
        ));
        assert!(!under(
            "https://github.com/other/x",
            "https://github.com/corp/"
        ));
    }
}
