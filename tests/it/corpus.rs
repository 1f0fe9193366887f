//! The real published skills in `../shared/corpus`: every one lists and
//! validates with the reference validator's verdict.

use std::path::PathBuf;

use crate::common::{TestContext, reference_verdicts, skillpkg_verdicts};

fn corpus_skills() -> Option<Vec<PathBuf>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/anthropics-skills");
    let Ok(entries) = std::fs::read_dir(&root) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the skills corpus must be at {} under CI",
            root.display()
        );
        eprintln!(
            "SKIPPED: the skills corpus is not at {}; corpus tests did not run",
            root.display()
        );
        return None;
    };
    let mut dirs: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= 10,
        "the corpus should hold at least 10 skills"
    );
    Some(dirs)
}

#[test]
fn corpus_validates_with_the_reference_verdict() {
    let Some(dirs) = corpus_skills() else { return };
    let ctx = TestContext::new();
    let ours = skillpkg_verdicts(&ctx, &dirs);
    for (dir, report) in dirs.iter().zip(&ours) {
        let expected_valid = !dir.ends_with("claude-api");
        assert_eq!(
            report["valid"],
            expected_valid,
            "{}: {}",
            dir.display(),
            report["problems"]
        );
    }
    let claude_api = ours
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("claude-api"))
        .unwrap();
    assert_eq!(claude_api["problems"][0]["rule"], "description-length");
    if let Some(reference) = reference_verdicts(&dirs) {
        for (theirs, ours) in reference.iter().zip(&ours) {
            assert_eq!(theirs["valid"], ours["valid"], "{}", theirs["path"]);
        }
    }
}

#[test]
fn corpus_lists_every_skill_including_the_invalid_one() {
    let Some(dirs) = corpus_skills() else { return };
    let ctx = TestContext::new();
    for dir in &dirs {
        let target = ctx.user_root().join(dir.file_name().unwrap());
        std::os::unix::fs::symlink(dir, target).unwrap();
    }
    let out = ctx.ok(&["list", "--json"]);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let entry = listed
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name} not listed"));
        assert_eq!(entry["root"], "user");
    }
    // claude-api's description is over 1024 characters: it loads with a
    // warning, summed up in one line, shown in full with -v.
    assert!(
        out.stderr
            .contains("claude-api loads with warnings; `skillpkg validate "),
        "{}",
        out.stderr
    );
    let detailed = ctx.ok(&["list", "-v", "--json"]);
    assert!(
        detailed.stderr.contains("claude-api") && detailed.stderr.contains("description-length"),
        "{}",
        detailed.stderr
    );

    let prompt = ctx.ok(&["prompt"]);
    assert_eq!(
        prompt.stdout.matches("<skill>").count(),
        dirs.len() + 2,
        "corpus plus the two builtin skills"
    );
}

#[test]
fn prompt_matches_the_reference_to_prompt() {
    let Some(dirs) = corpus_skills() else { return };
    // claude-api is left out: its description is over the limit, and the
    // catalog deliberately cuts it at 1024 characters.
    let dirs: Vec<PathBuf> = dirs
        .into_iter()
        .filter(|d| !d.ends_with("claude-api"))
        .collect();
    let reference = std::process::Command::new("agentskills")
        .arg("to-prompt")
        .args(&dirs)
        .output();
    let Ok(reference) = reference else {
        assert!(
            std::env::var_os("CI").is_none(),
            "`agentskills` (skills-ref) must be installed under CI"
        );
        eprintln!("SKIPPED: `agentskills` (pip install skills-ref==0.1.1) is not installed");
        return;
    };
    assert!(reference.status.success());
    let reference = String::from_utf8(reference.stdout).unwrap();

    let ctx = TestContext::new();
    for dir in &dirs {
        std::os::unix::fs::symlink(dir, ctx.user_root().join(dir.file_name().unwrap())).unwrap();
    }
    let out = ctx.ok(&["prompt"]);
    // Drop the builtin skills' blocks, then compare byte for byte.
    let ours: String = out
        .stdout
        .split("<skill>\n")
        .filter(|block| !block.contains("/builtin/"))
        .collect::<Vec<_>>()
        .join("<skill>\n");
    assert_eq!(ours, reference);
}
