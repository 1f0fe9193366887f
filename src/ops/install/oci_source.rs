//! `add oci://HOST/REPO:TAG`: records the artifact's skill, or the skills
//! of the collection it names (those `--skill` picks), then installs; and
//! `add oci://… --list`.

use anyhow::Context as _;

use super::{Change, InstallOptions, add_all, repo};
use crate::dirs::Dirs;
use crate::manifest::DependencySpec;
use crate::ops::edit::Edit;
use crate::ops::sources::oci::artifact::{Unpacked, unpack};
use crate::project::Project;

/// Adds the skill of the artifact `reference` names under its own name,
/// or every skill of the collection it names, each under its name,
/// recorded with the tag or digest given, then installs.
/// `picks` (`--skill`) names the skills of a collection to add (default:
/// all); a name the artifact does not hold is an error listing those it
/// does.
pub(crate) fn add_oci(
    project: &Project,
    dirs: &Dirs,
    reference: &crate::manifest::oci_ref::OciReference,
    picks: &[String],
    replace: &[String],
    options: InstallOptions,
) -> anyhow::Result<(Option<crate::ops::plugin::Plugin>, Vec<Change>)> {
    use crate::manifest::oci_ref::OciPin;
    let mut plugin = None;
    let edit = Edit::open(project, dirs)?;
    let registries = options.registries(dirs);
    let (repository, pin) = (&reference.repository, &reference.pin);
    let spec = |skill: Option<String>| {
        DependencySpec::Detailed(crate::manifest::DetailedSpec {
            oci: Some(repository.clone()),
            tag: pin.tag().map(str::to_string),
            digest: match pin {
                OciPin::Digest(digest) => Some(digest.clone()),
                OciPin::Tag(_) => None,
            },
            skill,
            ..Default::default()
        })
    };
    let could_not = || format!("could not get oci://{reference}");
    let added =
        match crate::oci::collection(repository, pin, &registries).with_context(could_not)? {
            Some(names) => picked(picks, names, reference)?
                .into_iter()
                .map(|name| (name.clone(), spec(Some(name))))
                .collect(),
            None => {
                // Its name is its skill's: the artifact is read once to learn
                // it (the install reads its layer from the cache).
                let staging = project.staging_dir();
                fs_err::create_dir_all(&staging)?;
                let scratch = crate::fsutil::private_tempdir(".source-", Some(&staging))?;
                let (names, held_by) = skills_in(reference, scratch.path(), &registries)?;
                let in_plugin = held_by.is_some();
                plugin = held_by;
                picked(picks, names, reference)?
                    .into_iter()
                    // A plugin's skills are recorded each with its name.
                    .map(|name| match in_plugin {
                        true => (name.clone(), spec(Some(name))),
                        false => (name, spec(None)),
                    })
                    .collect()
            }
        };
    let changes = add_all(edit, dirs, added, replace, false, options)?;
    Ok((plugin, changes))
}

/// The names of the skills the artifact `reference` names holds: a
/// collection's, or its one skill's (`add --list`).
pub(crate) fn list_oci(
    dirs: &Dirs,
    reference: &crate::manifest::oci_ref::OciReference,
    options: &InstallOptions,
) -> anyhow::Result<Vec<String>> {
    let registries = options.registries(dirs);
    let (repository, pin) = (&reference.repository, &reference.pin);
    let could_not = || format!("could not get oci://{reference}");
    if let Some(names) =
        crate::oci::collection(repository, pin, &registries).with_context(could_not)?
    {
        return Ok(names);
    }
    let scratch = crate::fsutil::private_tempdir("skillpkg-list-", None)?;
    Ok(skills_in(reference, scratch.path(), &registries)?.0)
}

/// The skills of the artifact `reference` names (no collection),
/// extracted into `scratch`: its one skill's name, or those of the
/// Agent Plugin it holds (then the plugin too).
fn skills_in(
    reference: &crate::manifest::oci_ref::OciReference,
    scratch: &std::path::Path,
    registries: &crate::oci::Settings,
) -> anyhow::Result<(Vec<String>, Option<crate::ops::plugin::Plugin>)> {
    let (repository, pin) = (&reference.repository, &reference.pin);
    let (unpacked, _, _) = unpack(repository, pin, None, scratch, registries)
        .with_context(|| format!("could not get oci://{reference}"))?;
    match unpacked {
        Unpacked::Skill(dir) => {
            let skill = crate::skill::load_skill(&dir)
                .with_context(|| format!("could not read the skill in oci://{reference}"))?;
            Ok((vec![skill.meta.name], None))
        }
        Unpacked::Plugin { plugin, skills } => Ok((
            skills.into_iter().map(|(name, _)| name).collect(),
            Some(plugin),
        )),
    }
}

/// The names of `names` (the skills of the artifact `reference`) that
/// `--skill` patterns pick.
fn picked(
    picks: &[String],
    names: Vec<String>,
    reference: &crate::manifest::oci_ref::OciReference,
) -> anyhow::Result<Vec<String>> {
    let shown: Vec<&str> = names.iter().map(String::as_str).collect();
    let indices = repo::pick_indices(&shown, picks, &format!("oci://{reference}"))?;
    Ok(indices.into_iter().map(|i| names[i].clone()).collect())
}
