//! Approvals bound to content (DESIGN §11): an installed skill's grants
//! were approved for the tree its lock entry records, and count only while
//! its folder holds that tree. The folder is hashed when the skill is
//! activated, not before: a run over thousands of skills hashes only the
//! few with grants that it uses.

use std::path::PathBuf;

use serde::Serialize;

/// The tree an installed skill's grants were approved for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    /// The skill's folder.
    pub dir: PathBuf,
    /// The `h1:` tree hash its lock entry records.
    pub tree: String,
    /// Where that is recorded, for messages: `acme/runner in /p/skills.lock`.
    pub recorded_in: String,
}

impl Pin {
    /// Whether the folder holds the pinned tree; why not, when it does not.
    pub fn check(&self) -> Result<(), String> {
        match crate::store::hash::tree_hash(&self.dir) {
            Ok(tree) if tree == self.tree => Ok(()),
            Ok(_) => Err(format!(
                "its files differ from the tree recorded for {}",
                self.recorded_in
            )),
            Err(e) => Err(format!(
                "its files cannot be read ({e}) to compare them with the tree recorded for {}",
                self.recorded_in
            )),
        }
    }
}

/// A skill whose grants a run withdrew, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Withdrawn {
    /// The skill.
    pub skill: String,
    /// Why.
    pub reason: String,
}

impl Withdrawn {
    /// The warning the user sees.
    pub(crate) fn warning(&self) -> String {
        format!(
            "the skill '{}' changed since its grants were approved: {}; they do not count in this run (`skillpkg verify` shows what changed)",
            self.skill, self.reason
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_holds_while_the_folder_holds_its_tree() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("SKILL.md"), "---\nname: a\n---\n").unwrap();
        let pin = Pin {
            dir: dir.path().to_path_buf(),
            tree: crate::store::hash::tree_hash(dir.path()).unwrap(),
            recorded_in: "a in skills.lock".into(),
        };
        assert_eq!(pin.check(), Ok(()));
        std::fs::write(dir.path().join("SKILL.md"), "---\nname: a\n---\nmore\n").unwrap();
        let reason = pin.check().unwrap_err();
        assert!(reason.contains("a in skills.lock"), "{reason}");
    }
}
