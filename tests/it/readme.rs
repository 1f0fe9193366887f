//! The README's quick start, run line by line as a new user would run it:
//! every `skillpkg …` line of its code blocks, in a fresh folder, through a
//! shell. Repositories the README names on GitHub are served from a local
//! copy made here, so the lines run without the network.

use std::path::Path;

use crate::common::{TestContext, git, skill_md, write_skill};

/// The `skillpkg …` lines of the README's "Quick start" section, in order.
fn quick_start_lines(readme: &str) -> Vec<String> {
    let section = readme
        .split("\n## ")
        .find(|section| section.starts_with("Quick start"))
        .expect("the README has a Quick start section");
    let mut lines = Vec::new();
    let mut in_block = false;
    for line in section.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
        } else if in_block && line.starts_with("skillpkg ") {
            lines.push(line.to_string());
        }
    }
    lines
}

/// A repository shaped like anthropics/skills: skills under `skills/`.
fn skills_repo(dir: &Path) {
    for name in ["pdf", "docx", "doc-coauthoring", "xlsx"] {
        write_skill(
            &dir.join("skills"),
            name,
            &skill_md(
                name,
                &format!("Work with {name} files. Use when asked about {name}."),
            ),
        );
    }
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "skills"]);
}

#[test]
fn every_line_of_the_readmes_quick_start_runs() {
    let ctx = TestContext::new();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let lines = quick_start_lines(&readme);
    assert!(lines.len() >= 10, "too few lines found: {lines:?}");

    let repo = ctx.root().join("anthropics-skills");
    skills_repo(&repo);
    let repo_url = format!("file://{}", repo.display());
    let demo = ctx.root().join("demo");
    write_skill(
        &demo.join("tools"),
        "helper",
        &skill_md("helper", "Helps. Use when asked."),
    );
    // NVIDIA's root and one of its signed skills, stood in for by the OMS
    // fixtures.
    let oms = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/oms");
    std::fs::copy(oms.join("root.pem"), demo.join("nv-agent-root-cert.pem")).unwrap();
    crate::common::copy_dir(&oms.join("signed"), &demo.join("skills/cuda"));
    let model = ctx.root().join("model.json");
    std::fs::write(&model, r#"[{"text": "The report says revenue grew."}]"#).unwrap();

    let binary = assert_cmd::cargo::cargo_bin("skillpkg");
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let template = ctx.command();
    for line in &lines {
        let line = line
            .replace("github:anthropics/skills", &repo_url)
            .replace("https://github.com/anthropics/skills", &repo_url);
        let mut shell = std::process::Command::new("bash");
        shell.env_clear();
        for (key, value) in template.get_envs() {
            if let Some(value) = value {
                shell.env(key, value);
            }
        }
        shell
            .env("PATH", &path)
            .env("SKILLPKG_MODEL", format!("scripted:{}", model.display()))
            .current_dir(&demo)
            .args(["-c", &line]);
        let out = shell.output().unwrap();
        assert!(
            out.status.success(),
            "README line failed: {line}\n--- stdout\n{}\n--- stderr\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // What the lines did: the sample package, the new skill, the chosen
    // repository skills and the folder are all in the project.
    let lock = std::fs::read_to_string(demo.join("skills.lock")).unwrap();
    for name in [
        "example/pdf-processing",
        "pdf",
        "docx",
        "doc-coauthoring",
        "xlsx",
        "helper",
    ] {
        assert!(
            lock.contains(&format!("\"{name}\"")),
            "{name} is not locked:\n{lock}"
        );
    }
    assert!(demo.join(".agents/skills/triage-logs/SKILL.md").is_file());
}
