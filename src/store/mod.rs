//! Archives, hashes and signatures: packing a skill into a deterministic
//! `.skill` zip, extracting one (or an OCI registry's tar layer) safely,
//! and minisign signing.

pub mod archive;
pub(crate) mod diff;
pub mod extract;
pub mod hash;
pub(crate) mod layer;
pub mod limits;
mod link;
pub(crate) mod names;
pub(crate) mod pack;
pub(crate) mod regular;
pub mod signing;
pub(crate) mod stage;
pub(crate) mod trees;
pub mod untar;
pub(crate) mod verified;

/// A small skill for the store's tests: `SKILL.md` (with a hidden
/// character), an executable `scripts/run.sh` and `references/deep/a.md`,
/// in the folder `folder` of `dir`.
#[cfg(test)]
pub(crate) fn demo_skill(dir: &std::path::Path, folder: &str) -> std::path::PathBuf {
    let skill = dir.join(folder);
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::create_dir_all(skill.join("references/deep")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: demo\ndescription: Demo. Use when testing.\n---\nBody \u{200B}.\n",
    )
    .unwrap();
    std::fs::write(skill.join("references/deep/a.md"), "a\n").unwrap();
    std::fs::write(skill.join("scripts/run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(
            skill.join("scripts/run.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    skill
}
