//! The approvals of skills MCP servers serve (`exec --mcp-skills`): kept
//! in the user's trust file by origin and name, bound to the digest set
//! the skill was served with. A server that serves other bytes, another
//! file or one file fewer has another digest set, and the approval no
//! longer counts; its `allowed-tools` grant nothing until then, and its
//! scripts do not run.

use super::{Keeper, SkillGrants, counted};
use crate::dirs::Dirs;
use crate::ops::consent::record::{SkillApproval, TrustFile};

/// One skill a server serves, as the survey needs it.
pub(crate) struct ServedRef<'a> {
    /// The skill, loaded from the store.
    pub skill: &'a crate::skill::Skill,
    /// `mcp:<server>`.
    pub origin: &'a str,
    /// Its digest set now.
    pub digest_set: &'a str,
}

/// The grants of every served skill, with what counts now. Every served
/// skill is surveyed, whether or not it asks for tools: approving one is
/// what lets its scripts run.
pub(crate) fn survey(served: &[ServedRef], dirs: &Dirs) -> anyhow::Result<Vec<SkillGrants>> {
    if served.is_empty() {
        return Ok(Vec::new());
    }
    let file = TrustFile::load(dirs)?;
    Ok(served
        .iter()
        .map(|s| {
            let mut grants = SkillGrants {
                name: s.skill.meta.name.clone(),
                dir: s.skill.dir.clone(),
                root: None,
                keeper: Keeper::Mcp {
                    origin: s.origin.to_string(),
                    digest_set: s.digest_set.to_string(),
                },
                asks: s.skill.meta.allowed_tools.clone(),
                approved: Vec::new(),
                note: None,
                pinned_tree: None,
                skill_approved: false,
            };
            let recorded = file
                .mcp_skills
                .get(s.origin)
                .and_then(|skills| skills.get(&grants.name));
            match recorded {
                Some(approval) if approval.tree == s.digest_set => {
                    grants.approved = counted(&grants.asks, &approval.grants);
                    grants.skill_approved = true;
                }
                Some(_) => {
                    grants.note = Some(format!(
                        "{} serves other files than those approved: approve it again",
                        s.origin
                    ))
                }
                None => {}
            }
            grants
        })
        .collect())
}

/// Records (`Some(grants)`) or withdraws (`None`) the approval of the
/// skill `name` that `origin` serves with `digest_set`.
pub(super) fn record(
    dirs: &Dirs,
    origin: &str,
    name: &str,
    digest_set: &str,
    grants: Option<&Vec<String>>,
) -> anyhow::Result<()> {
    TrustFile::update(dirs, |file| match grants {
        Some(grants) => {
            file.mcp_skills
                .entry(origin.to_string())
                .or_default()
                .insert(
                    name.to_string(),
                    SkillApproval {
                        tree: digest_set.to_string(),
                        grants: grants.clone(),
                    },
                );
        }
        None => {
            if let Some(skills) = file.mcp_skills.get_mut(origin) {
                skills.remove(name);
                if skills.is_empty() {
                    file.mcp_skills.remove(origin);
                }
            }
        }
    })
}
