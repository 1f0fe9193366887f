//! `add --well-known SITE`: the skills a site's agent-skills index lists,
//! added to skills.toml and installed ([`crate::ops::sources::well_known`] fetches
//! them).

use anyhow::bail;

use crate::hint::Hinted;

/// Adds the skills of the agent-skills index of `site` that `patterns`
/// pick (all of them when there are none), each under its own name,
/// recorded as `{ well-known = SITE, skill = NAME }`, then installs; the
/// lock pins each by the digest of what was installed and its tree. Names
/// the manifest takes from another source are refused, all of them before
/// anything is written, unless `replace` names them. Returns the index
/// read and what changed.
pub(crate) fn add_well_known(
    project: &crate::project::Project,
    dirs: &crate::dirs::Dirs,
    site: &str,
    patterns: &[String],
    replace: &[String],
    options: super::InstallOptions,
) -> anyhow::Result<(crate::index::well_known::Index, Vec<super::Change>)> {
    let site = crate::manifest::well_known_ref::parse_site(site).map_err(anyhow::Error::msg)?;
    if options.offline {
        bail!(
            Hinted::new(format!(
                "adding from {site} reads its agent-skills index, and --offline forbids that"
            ))
            .hint("leave out --offline")
        );
    }
    let edit = crate::ops::edit::Edit::open(project, dirs)?;
    let index = crate::ops::sources::well_known::read_index(&edit.views.sites, &site)?;
    let mut added = Vec::new();
    for entry in crate::ops::sources::well_known::pick(&index, patterns)? {
        let spec = crate::manifest::DependencySpec::Detailed(crate::manifest::DetailedSpec {
            well_known: Some(site.clone()),
            skill: Some(entry.name.clone()),
            ..Default::default()
        });
        spec.source(&entry.name)?;
        added.push((entry.name.clone(), spec));
    }
    let changes = super::add_all(edit, dirs, added, replace, true, options)?;
    Ok((index, changes))
}
