//! The org policy a project is under (DESIGN §6): its default registry's
//! signed `policy.toml`, pinned in `skills.lock` on first use as keys
//! are. A later index that drops the policy, or serves one its org did
//! not sign, is refused; one the org signed anew replaces the pin.

use anyhow::bail;

use crate::dirs::Dirs;
use crate::hint::Hinted;
use crate::index::freshness::Freshness;
use crate::index::policy_file::IndexPolicy;
use crate::index::source::{Registry, open_registry};
use crate::manifest::Manifest;
use crate::manifest::channel::Channel;
use crate::manifest::lock::{CommitSigner, LockedSigner, Lockfile, PinnedPolicy};
use crate::manifest::source_id::SourceId;
use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, Pins};
use crate::project::Project;

/// A project's policy, checked.
pub(crate) struct ProjectPolicy {
    /// The policy as its index serves it.
    pub policy: IndexPolicy,
    /// When it expired, if it did: no new version is taken from the
    /// index, and what the lock pins installs with a warning.
    pub expired: Option<jiff::Timestamp>,
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
    freshness: &Freshness,
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
    let policy = IndexPolicy::read(&files.text, &files.origin)?;
    let claim = Claim::Policy {
        policy: &policy,
        text: &files.text,
        signature: files.signature.as_deref(),
    };
    check(claim, &Pins::of_keys(&keys_of(&policy.policy.org))).proof()?;
    if let Some(pinned) = pinned {
        check_against_pin(&policy, pinned, &registry.label)?;
    }
    let expired = freshness.check_policy(
        &policy.origin,
        policy.policy.index.as_deref(),
        policy.policy.serial,
        policy.policy.expires.as_deref(),
    )?;
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
        expired,
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
    if let (None, Some(index)) = (&policy.policy.index, &pinned.index) {
        bail!(
            Hinted::new(format!(
                "{} names no index, but skills.lock pins org '{}''s policy for the index {index}",
                policy.origin, pinned.org
            ))
            .hint("the index serves a policy from before policies named their index (a replay): ask the org to sign its newest")
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

/// The org policy of the project's default registry, checked, with the
/// checks of that index's metadata (which the policy may tighten).
pub(super) fn and_freshness(
    default_registry: Option<&Registry>,
    old_lock: &Lockfile,
    dirs: &Dirs,
) -> anyhow::Result<(Option<ProjectPolicy>, Option<Freshness>)> {
    let Some(registry) = default_registry else {
        return Ok((None, None));
    };
    let mut freshness = Freshness::of(registry, &dirs.data)?;
    let policy = for_project(registry, old_lock, &freshness)?;
    freshness.required = policy.as_ref().is_some_and(|p| p.requires_fresh_metadata());
    freshness.save()?;
    Ok((policy, Some(freshness)))
}

/// The metadata checks of each of `registries`, the default one's as
/// [`and_freshness`] made them.
pub(super) fn freshness_of(
    registries: &[Registry],
    mut default: Option<Freshness>,
    dirs: &Dirs,
) -> anyhow::Result<Vec<Freshness>> {
    registries
        .iter()
        .map(
            |registry| match default.take_if(|f| f.label == registry.label) {
                Some(freshness) => Ok(freshness),
                None => Freshness::of(registry, &dirs.data),
            },
        )
        .collect()
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
                index: self.policy.policy.index.clone(),
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

    /// Refuses `name@version`, which the lock pins, standing in `channel`
    /// below the lowest the policy lets members use: the lock does not
    /// override the org.
    pub(crate) fn check_locked_channel(
        &self,
        name: &str,
        version: &str,
        channel: Channel,
    ) -> anyhow::Result<()> {
        let Some(lowest) = self.policy.policy.lowest_channel else {
            return Ok(());
        };
        if !lowest.admits(channel) {
            bail!(
                self.policy
                    .refusal(
                        &format!(
                            "{name} {version}, which skills.lock pins in the {channel} channel,"
                        ),
                        &format!("members may use the {lowest} channel and above (lowest-channel)")
                    )
                    .hint(format!(
                        "move to a version the org published: `skillpkg update {}`",
                        crate::hint::shell_quote(name)
                    ))
            );
        }
        Ok(())
    }

    /// Refuses the new versions that `taken` names (`(name, version)`)
    /// from the policy's index once the policy expired; with none, the
    /// warning to give for installing exactly what the lock pins.
    pub(crate) fn check_expiry(
        &self,
        taken: &[(String, String)],
    ) -> anyhow::Result<Option<String>> {
        let Some(at) = self.expired else {
            return Ok(None);
        };
        let what = format!(
            "the policy of org '{}' ({})",
            self.policy.policy.org, self.policy.origin
        );
        if let Some((name, version)) = taken.first() {
            let refusal = crate::index::freshness::expired_refusal(&what, at);
            bail!(
                Hinted::new(format!(
                    "{name} {version} is not taken from {}: {}",
                    self.index,
                    refusal.message()
                ))
                .hint(&refusal.hints()[0])
            );
        }
        Ok(Some(format!(
            "{what} expired at {at}; installing only what skills.lock pins from {}",
            self.index
        )))
    }

    /// Whether channel records must be bound to the index.
    pub(crate) fn requires_fresh_metadata(&self) -> bool {
        self.policy.policy.require_fresh_metadata
    }

    /// Whether versions must carry channel signatures.
    pub(crate) fn requires_channel_signatures(&self) -> bool {
        self.policy.policy.require_channel_signatures
    }

    /// The scanner rules no waiver accepts.
    pub(crate) fn unwaivable(&self) -> &[String] {
        &self.policy.policy.unwaivable
    }

    /// Refuses the skill `name` from `source`, verified as `signer` (or,
    /// for a git skill, whose commit `commit_signer` signed), when the
    /// policy does not allow its source or signer. A project's own
    /// path skills are its code, under review with it: always allowed.
    pub(crate) fn check_skill(
        &self,
        name: &str,
        source: &SourceId,
        signer: Option<&LockedSigner>,
        commit_signer: Option<&CommitSigner>,
    ) -> Result<(), Hinted> {
        let policy = &self.policy.policy;
        let Some(place) = place_of(source) else {
            return Ok(());
        };
        if policy.require_signed_commits
            && matches!(source, SourceId::Git { .. })
            && commit_signer.is_none()
        {
            return Err(self
                .policy
                .refusal(
                    &format!("{name} from {place}"),
                    "its commits are not checked, and the policy requires signed commits of every git skill (require-signed-commits)",
                )
                .hint(format!(
                    "name who signs the repository's commits: `skillpkg add --git {place} --signed-by KEY` (an SSH public key or gpg:FINGERPRINT)"
                )));
        }
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
            None if policy.require_signatures && commit_signer.is_none() => {
                Err(self.policy.refusal(
                    &format!("{name} from {place}"),
                    "it is not signed, and every skill must be",
                ))
            }
            Some(signer) if !policy.signers.is_empty() => {
                let allowed = policy.signers.iter().any(|s| s.admits(signer));
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
    crate::ops::sources::of_pin(source).place(source)
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
