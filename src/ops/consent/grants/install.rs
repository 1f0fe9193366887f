//! Grants at install (DESIGN §11 step 2): each installed skill's
//! `allowed-tools` asks to pre-approve tools. What the lock recorded as
//! approved before stays approved as long as the skill still asks for it;
//! what a new or changed skill asks for beyond that is listed and, on a
//! terminal, asked about (or approved by `--approve-grants`). Headless,
//! the install goes ahead and those grants stay unapproved.

use std::path::Path;

use crate::manifest::lock::LockedSkill;
use crate::ops::install::{Action, Change};
use crate::ops::install::{GrantConsent, GrantRequest};
use crate::skill::tool_pattern::{UNSAFE_PATTERN_RULE, needs_approval};

/// The patterns the installed skill in `dir` asks to pre-approve: none
/// when it cannot be read, or anyone on the machine could have written it.
/// With them, the warnings of patterns the loader dropped as unsafe
/// ([`UNSAFE_PATTERN_RULE`]), which the install says.
pub(crate) fn asked_for(dir: &Path) -> (Vec<String>, Vec<String>) {
    let Ok(skill) = crate::skill::load::load_skill(dir) else {
        return Default::default();
    };
    let dropped = skill
        .warnings
        .iter()
        .filter(|w| w.starts_with(UNSAFE_PATTERN_RULE))
        .cloned()
        .collect();
    (skill.grantable_tools().to_vec(), dropped)
}

/// Settles the `grants` of every locked skill, given what each `asks` to
/// pre-approve: keeps the approvals the skill still asks for, and asks
/// `consent` about the rest
/// for skills this install put in place or changed (every skill, with
/// `--approve-grants`). Each change records what was approved and what
/// stays unapproved.
pub(crate) fn settle(
    locked: &mut [LockedSkill],
    changes: &mut [Change],
    asks: Vec<Vec<String>>,
    consent: GrantConsent,
) {
    let change_of: std::collections::HashMap<String, usize> = changes
        .iter()
        .enumerate()
        .map(|(at, c)| (c.name.clone(), at))
        .collect();
    for (skill, asks) in locked.iter_mut().zip(asks) {
        let approved: Vec<String> = asks
            .iter()
            .filter(|p| skill.grants.contains(p))
            .cloned()
            .collect();
        // Patterns of tools that only read never need approval: never
        // asked about, never reported as unapproved.
        let unapproved: Vec<String> = asks
            .iter()
            .filter(|p| !approved.contains(p) && needs_approval(p))
            .cloned()
            .collect();
        skill.grants = approved.clone();
        let Some(change) = change_of.get(&skill.name).map(|at| &mut changes[*at]) else {
            continue;
        };
        let changed = change.action != Action::Unchanged;
        if unapproved.is_empty() || !(changed || matches!(consent, GrantConsent::ApproveAll)) {
            continue;
        }
        let request = GrantRequest {
            name: skill.name.clone(),
            version: skill.shown_version(),
            unapproved,
            approved,
        };
        let yes = match consent {
            GrantConsent::Leave => false,
            GrantConsent::ApproveAll => true,
            GrantConsent::Ask(asker) => asker.approve(&request),
        };
        if yes {
            skill.grants = asks;
            change.approved_grants = request.unapproved;
        } else {
            change.unapproved_grants = request.unapproved;
        }
    }
}
