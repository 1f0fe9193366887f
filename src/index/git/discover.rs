//! Finding the skills a git repository holds, where `npx skills` and the
//! agents look: a `SKILL.md` at the top makes the repository one skill;
//! otherwise every folder holding a `SKILL.md` (`skills/<name>`,
//! `.agents/skills/<name>`, `.claude/skills/<name>`, or deeper), searched
//! to a bounded depth, without descending into dependencies' folders. A
//! folder inside another skill is part of that skill, not a skill of its
//! own. Nothing is written: the tree is read from the object database.

use anyhow::{Context as _, bail};
use git2::{Repository, TreeWalkMode, TreeWalkResult};

use crate::hint::Hinted;

/// The names a skill's file may have.
const SKILL_FILES: [&str; 2] = ["SKILL.md", "skill.md"];

/// How deep below the top the search goes (`a/b/c/d/e/f/SKILL.md`).
pub(crate) const MAX_DEPTH: usize = 6;

/// Entries the search visits, at most.
const MAX_ENTRIES: usize = 500_000;

/// Skills one repository may hold, at most.
const MAX_SKILLS: usize = 5_000;

/// Bytes of a `SKILL.md` read to learn its name, at most.
pub const MAX_SKILL_MD: usize = 1024 * 1024;

/// Folders the search never enters: other packages' trees and VCS data.
pub(crate) const SKIPPED: [&str; 4] = [".git", "node_modules", ".venv", "__pycache__"];

/// The folders of `commit` that hold a skill, relative to the top, sorted
/// (`""` when the top itself is the skill).
pub fn skill_folders(
    repo: &Repository,
    commit: git2::Oid,
    origin: &str,
) -> anyhow::Result<Vec<String>> {
    let tree = repo.find_commit(commit)?.tree()?;
    if SKILL_FILES.iter().any(|name| tree.get_name(name).is_some()) {
        return Ok(vec![String::new()]);
    }
    let mut found: Vec<String> = Vec::new();
    let mut visited = 0usize;
    let mut too_many = false;
    tree.walk(TreeWalkMode::PreOrder, |parent, entry| {
        visited += 1;
        if visited > MAX_ENTRIES {
            too_many = true;
            return TreeWalkResult::Abort;
        }
        let name = entry.name().unwrap_or_default();
        let depth = parent.matches('/').count();
        match entry.kind() {
            Some(git2::ObjectType::Tree) if depth >= MAX_DEPTH || SKIPPED.contains(&name) => {
                TreeWalkResult::Skip
            }
            Some(git2::ObjectType::Blob) if SKILL_FILES.contains(&name) && !parent.is_empty() => {
                let folder = parent.trim_end_matches('/').to_string();
                if found.last() != Some(&folder) {
                    found.push(folder);
                }
                TreeWalkResult::Ok
            }
            _ => TreeWalkResult::Ok,
        }
    })?;
    if too_many {
        bail!(
            Hinted::new(format!(
                "{origin} holds more than {MAX_ENTRIES} files and folders"
            ))
            .hint("name the skill's folder with --subdir")
        );
    }
    found.sort();
    // A skill's own folders (examples, templates) are part of it.
    let mut skills: Vec<String> = Vec::new();
    for folder in found {
        let inside_another = skills
            .iter()
            .any(|skill| folder.starts_with(&format!("{skill}/")));
        if !inside_another {
            skills.push(folder);
        }
    }
    if skills.len() > MAX_SKILLS {
        bail!(
            Hinted::new(format!("{origin} holds more than {MAX_SKILLS} skills"))
                .hint("name the skill's folder with --subdir")
        );
    }
    Ok(skills)
}

/// The `SKILL.md` (or `skill.md`) of `folder` in `commit`, at most
/// [`MAX_SKILL_MD`] bytes of it: its file name and text.
pub fn read_skill_md(
    repo: &Repository,
    commit: git2::Oid,
    folder: &str,
) -> anyhow::Result<Option<(&'static str, Vec<u8>)>> {
    let tree = repo.find_commit(commit)?.tree()?;
    for name in SKILL_FILES {
        let path = match folder.trim_matches('/') {
            "" => name.to_string(),
            folder => format!("{folder}/{name}"),
        };
        let Ok(entry) = tree.get_path(std::path::Path::new(&path)) else {
            continue;
        };
        if entry.kind() != Some(git2::ObjectType::Blob) || entry.filemode() == 0o120000 {
            continue;
        }
        let blob = repo
            .find_blob(entry.id())
            .with_context(|| format!("could not read {path}"))?;
        let bytes = blob.content();
        return Ok(Some((
            name,
            bytes[..bytes.len().min(MAX_SKILL_MD)].to_vec(),
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository with one commit holding `files` (path, text).
    fn repo_with(files: &[&str]) -> (tempfile::TempDir, Repository, git2::Oid) {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        for path in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, "---\nname: x\ndescription: y\n---\n").unwrap();
        }
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let who = git2::Signature::now("t", "t@t").unwrap();
        let commit = repo
            .commit(Some("HEAD"), &who, &who, "skills", &tree, &[])
            .unwrap();
        drop(tree);
        (dir, repo, commit)
    }

    #[test]
    fn skills_are_found_where_agents_look_and_not_inside_one_another() {
        let (_dir, repo, commit) = repo_with(&[
            "README.md",
            "skills/pdf/SKILL.md",
            "skills/pdf/examples/demo/SKILL.md",
            "skills/lint/skill.md",
            ".claude/skills/review/SKILL.md",
            "node_modules/dep/SKILL.md",
            "a/b/c/d/e/deep/SKILL.md",
            "a/b/c/d/e/f/too-deep/SKILL.md",
        ]);
        assert_eq!(
            skill_folders(&repo, commit, "repo").unwrap(),
            [
                ".claude/skills/review",
                "a/b/c/d/e/deep",
                "skills/lint",
                "skills/pdf"
            ]
        );
        let (name, text) = read_skill_md(&repo, commit, "skills/lint")
            .unwrap()
            .unwrap();
        assert_eq!(name, "skill.md");
        assert!(text.starts_with(b"---"));
        assert!(read_skill_md(&repo, commit, "a").unwrap().is_none());
    }

    #[test]
    fn a_skill_md_at_the_top_makes_the_repository_one_skill() {
        let (_dir, repo, commit) = repo_with(&["SKILL.md", "skills/other/SKILL.md"]);
        assert_eq!(skill_folders(&repo, commit, "repo").unwrap(), [""]);
    }
}
