//! Grants at install (DESIGN §11 step 2): each installed skill's
//! `allowed-tools` asks to pre-approve tools. What the lock recorded as
//! approved before stays approved as long as the skill still asks for it;
//! what a new or changed skill asks for beyond that is listed and, on a
//! terminal, asked about (or approved by `--approve-grants`). Headless,
//! the install goes ahead and those grants stay unapproved.

use std::path::Path;

use serde::Serialize;

use crate::manifest::lock::LockedSkill;
use crate::skill::tool_pattern::{UNSAFE_PATTERN_RULE, needs_approval};

/// What a skill asks for that the user has not approved.
#[derive(Debug, Clone, Serialize)]
pub struct GrantRequest {
    /// The skill's lock name (`org/name`, or a plain name).
    pub name: String,
    /// Its version as reports show it (`v1.2.0`, or a short commit or
    /// tree hash).
    pub version: String,
    /// The patterns of its `allowed-tools` not approved yet.
    pub unapproved: Vec<String>,
    /// The patterns approved before, which stay approved.
    pub approved: Vec<String>,
}

/// How an install settles grants nobody approved yet.
#[derive(Clone, Copy, Default)]
pub enum GrantConsent<'p> {
    /// Leave them unapproved (no terminal, or `--locked`).
    #[default]
    Leave,
    /// Approve them all (`--approve-grants`).
    ApproveAll,
    /// Ask about each skill's.
    Ask(&'p dyn GrantAsker),
}

/// Who is asked, at install, whether a skill's grants are approved (the
/// terminal, in the CLI).
pub trait GrantAsker: Sync {
    /// Whether the patterns `request` lists are approved.
    fn approve(&self, request: &GrantRequest) -> bool;
}

impl<'p> GrantConsent<'p> {
    /// All approved with `approve_all` (`--approve-grants`), else asked of
    /// `asker` when there is one to ask (a terminal), else left.
    pub fn of(approve_all: bool, asker: Option<&'p dyn GrantAsker>) -> GrantConsent<'p> {
        match (approve_all, asker) {
            (true, _) => GrantConsent::ApproveAll,
            (false, Some(asker)) => GrantConsent::Ask(asker),
            (false, None) => GrantConsent::Leave,
        }
    }
}

impl std::fmt::Debug for GrantConsent<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GrantConsent::Leave => "Leave",
            GrantConsent::ApproveAll => "ApproveAll",
            GrantConsent::Ask(_) => "Ask",
        })
    }
}

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

/// What [`settle`] decided for one skill it asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settled {
    /// The skill's lock name.
    pub name: String,
    /// The patterns approved now.
    pub approved: Vec<String>,
    /// The patterns that stay unapproved.
    pub unapproved: Vec<String>,
}

/// Settles the `grants` of every locked skill, given what each `asks` to
/// pre-approve: keeps the approvals the skill still asks for, and asks
/// `consent` about the rest for the skills this install put in place or
/// changed (every skill it reports, with `--approve-grants`).
/// `reported(name)` says whether the install reports the skill `name`
/// (`None`: not at all) and whether it put it in place or changed it.
/// What was approved, and what stays unapproved, is returned per skill
/// asked about, for the install's report.
pub(crate) fn settle(
    locked: &mut [LockedSkill],
    reported: impl Fn(&str) -> Option<bool>,
    asks: Vec<Vec<String>>,
    consent: GrantConsent,
) -> Vec<Settled> {
    let mut settled = Vec::new();
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
        let Some(changed) = reported(&skill.name) else {
            continue;
        };
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
        }
        settled.push(Settled {
            name: request.name,
            approved: if yes {
                request.unapproved.clone()
            } else {
                Vec::new()
            },
            unapproved: if yes { Vec::new() } else { request.unapproved },
        });
    }
    settled
}
