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
pub(crate) const MAX_SKILL_MD: usize = 1024 * 1024;

/// Folders the search never enters: other packages' trees and VCS data.
pub(crate) const SKIPPED: [&str; 4] = [".git", "node_modules", ".venv", "__pycache__"];

/// The folders of `commit` that hold a skill, relative to the top, sorted
/// (`""` when the top itself is the skill).
pub(crate) fn skill_folders(
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
    let Some(skills) = outermost_folders(found, MAX_SKILLS) else {
        bail!(
            Hinted::new(format!("{origin} holds more than {MAX_SKILLS} skills"))
                .hint("name the skill's folder with --subdir")
        );
    };
    Ok(skills)
}

/// The folders of `found` that are inside no other folder of it, sorted:
/// a skill's own folders (examples, templates) are part of it. `None` as
/// soon as more than `cap` are kept.
///
/// One pass over the folders sorted part by part, each compared with the
/// last one kept only: in that order everything beneath a folder comes
/// right after it (`a/b`, `a/b/c`, then `a/b-c`; sorted as plain strings,
/// `a/b-c` would come between the other two, as `-` sorts before `/`).
/// A repository of hundreds of thousands of nested skills costs a sort
/// and one comparison each, where comparing each folder with every skill
/// kept so far cost minutes.
fn outermost_folders(mut found: Vec<String>, cap: usize) -> Option<Vec<String>> {
    found.sort_unstable_by(|a, b| a.split('/').cmp(b.split('/')));
    found.dedup();
    let mut skills: Vec<String> = Vec::new();
    for folder in found {
        if skills.last().is_some_and(|kept| is_beneath(&folder, kept)) {
            continue;
        }
        if skills.len() == cap {
            return None;
        }
        skills.push(folder);
    }
    skills.sort_unstable();
    Some(skills)
}

/// Whether the folder `path` lies beneath the folder `ancestor` (both
/// relative, `/`-separated, without a trailing `/`).
fn is_beneath(path: &str, ancestor: &str) -> bool {
    path.strip_prefix(ancestor)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// The `SKILL.md` (or `skill.md`) of `folder` in `commit`, at most
/// [`MAX_SKILL_MD`] bytes of it: its file name and text.
pub(crate) fn read_skill_md(
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
    fn only_folders_beneath_no_other_are_kept_in_one_pass() {
        let found = [
            "b/x", "a/b/c", "a/b", "a/b-c", "a/b.c/d", "a/b-c/e", "a/bc", "b/x/y/z", "a/b", "c",
        ];
        let found: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(
            outermost_folders(found.clone(), 10).unwrap(),
            ["a/b", "a/b-c", "a/b.c/d", "a/bc", "b/x", "c"]
        );
        // The cap counts the folders kept, not those found.
        assert!(outermost_folders(found.clone(), 6).is_some());
        assert!(outermost_folders(found, 5).is_none());
        assert!(is_beneath("a/b/c", "a/b"));
        assert!(!is_beneath("a/b-c", "a/b"));
        assert!(!is_beneath("a/b", "a/b"));
    }

    /// A repository of `skills` skill folders side by side, the last of
    /// which holds `examples` skill folders of its own, each holding
    /// `deeper` more, all from shared git objects (a few kilobytes
    /// however many folders they name).
    fn nested_repo(
        skills: usize,
        examples: usize,
        deeper: usize,
    ) -> (tempfile::TempDir, Repository, git2::Oid) {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(dir.path()).unwrap();
        let blob = repo.blob(b"---\nname: x\ndescription: y\n---\n").unwrap();
        // A folder holding a SKILL.md and `count` folders `tree`.
        let skill = |prefix: &str, count: usize, tree: Option<git2::Oid>| {
            let mut builder = repo.treebuilder(None).unwrap();
            builder.insert("SKILL.md", blob, 0o100644).unwrap();
            for i in 0..count {
                let name = format!("{prefix}{i:05}");
                builder.insert(name, tree.unwrap(), 0o040000).unwrap();
            }
            builder.write().unwrap()
        };
        let leaf = skill("", 0, None);
        let example = skill("deeper-", deeper, Some(leaf));
        let last = skill("example-", examples, Some(example));
        let commit = {
            let mut all = repo.treebuilder(None).unwrap();
            for i in 0..skills {
                let tree = if i + 1 == skills { last } else { leaf };
                all.insert(format!("s{i:05}"), tree, 0o040000).unwrap();
            }
            let mut top = repo.treebuilder(None).unwrap();
            top.insert("skills", all.write().unwrap(), 0o040000)
                .unwrap();
            let top = repo.find_tree(top.write().unwrap()).unwrap();
            let who = git2::Signature::now("t", "t@t").unwrap();
            repo.commit(None, &who, &who, "skills", &top, &[]).unwrap()
        };
        (dir, repo, commit)
    }

    /// 5,000 skills (the cap), the last holding 900 skill folders of its
    /// own, each holding 250 more: 226,000 nested folders with a
    /// `SKILL.md`, 462,000 entries in all, from objects of a few
    /// kilobytes. Comparing each nested folder with every skill kept
    /// before it (over 10^9 comparisons) took minutes in a test build;
    /// the one pass takes well under a second.
    #[test]
    fn nested_skill_folders_by_the_hundred_thousand_are_dropped_in_one_pass() {
        let (_dir, repo, commit) = nested_repo(MAX_SKILLS, 900, 250);
        let skills = skill_folders(&repo, commit, "repo").unwrap();
        assert_eq!(skills.len(), MAX_SKILLS);
        assert_eq!(skills[0], "skills/s00000");
        let last = format!("skills/s{:05}", MAX_SKILLS - 1);
        assert_eq!(skills[MAX_SKILLS - 1], last);
        // One more skill is past the cap, however many are nested.
        let (_dir, repo, commit) = nested_repo(MAX_SKILLS + 1, 10, 10);
        let error = skill_folders(&repo, commit, "repo").unwrap_err();
        assert!(
            error.to_string().contains("holds more than 5000 skills"),
            "{error}"
        );
    }

    #[test]
    fn a_skill_md_at_the_top_makes_the_repository_one_skill() {
        let (_dir, repo, commit) = repo_with(&["SKILL.md", "skills/other/SKILL.md"]);
        assert_eq!(skill_folders(&repo, commit, "repo").unwrap(), [""]);
    }
}
