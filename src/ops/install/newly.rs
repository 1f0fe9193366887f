//! What an updated skill newly does (DESIGN §12), said when `update`
//! replaces a locked version and by `outdated --diff`: new hosts,
//! credential files and secrets read, commands, scripts and grants asked
//! (from the two trees), and a new signer or owner (from the two lock
//! entries) — a repository that moved to a new owner, or a new publisher
//! key, is how abandoned skills get taken over.

use std::path::Path;

use crate::manifest::lock::LockedSkill;
use crate::manifest::source_id::SourceId;
use crate::scan::behaviour::Behaviour;

/// What the tree in `new` does that the one in `old` did not. A tree that
/// cannot be read says nothing (the install itself reads and checks it).
pub(super) fn of_trees(old: &Path, new: &Path) -> Vec<String> {
    match (Behaviour::of(old), Behaviour::of(new)) {
        (Ok(old), Ok(new)) => Behaviour::newly(&old, &new),
        _ => Vec::new(),
    }
}

/// A new signer or a new owner of `new` against the entry `old`.
pub(super) fn of_entries(old: &LockedSkill, new: &LockedSkill) -> Vec<String> {
    let mut said = Vec::new();
    if let (Some(before), Some(after)) = (&old.signer, &new.signer)
        && before != after
    {
        said.push(format!("is signed by {after}, no longer by {before}"));
    }
    if let (Some(before), Some(after)) = (owner(&old.source), owner(&new.source))
        && before != after
    {
        said.push(format!("comes from {after}, no longer from {before}"));
    }
    said
}

/// Who a source belongs to: a repository's host and owner, an OCI
/// repository's namespace, an index, a site.
fn owner(source: &SourceId) -> Option<String> {
    crate::ops::sources::of_pin(source).owner(source)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::lock::LockedSigner;
    use crate::manifest::source_id::GitOrigin;

    fn entry(url: &str, signer: Option<&str>) -> LockedSkill {
        let text = format!(
            "version = 1\n\n[[skill]]\nname = \"sync\"\nversion = \"1.0.0\"\nsource = \"git+{url}#{}\"\ntree = \"h1:t\"\n",
            "a".repeat(40)
        );
        let lock = crate::manifest::lock::Lockfile::parse(&text, Path::new("skills.lock")).unwrap();
        let mut skill = lock.skills()[0].clone();
        skill.signer = signer.map(|key| LockedSigner::Minisign(key.to_string()));
        skill
    }

    #[test]
    fn a_repository_under_a_new_owner_or_a_new_key_is_said() {
        let old = entry("https://github.com/alice/skills", Some("RWold"));
        let same = entry("https://github.com/alice/skills", Some("RWold"));
        assert!(of_entries(&old, &same).is_empty());
        let taken = entry("https://github.com/mallory/skills", Some("RWnew"));
        assert_eq!(
            of_entries(&old, &taken),
            [
                "is signed by minisign key RWnew, no longer by minisign key RWold",
                "comes from github.com/mallory, no longer from github.com/alice",
            ]
        );
        let ssh = SourceId::Git {
            origin: GitOrigin::new("git@github.com:alice/skills.git", None, None),
            commit: "a".repeat(40),
        };
        assert_eq!(owner(&ssh).as_deref(), Some("github.com/alice"));
    }
}
