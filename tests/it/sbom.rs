//! `skillpkg sbom`: a bill of materials of what skills.lock holds, valid
//! to the formats' own reference tools and the same for the same lock.

use std::path::Path;

use crate::common::{TestContext, git, new_project, skill_md, write_skill};

/// Validates `document` as `kind` with the formats' reference tools
/// (`tests/reference/validate_sbom.py`): false, loudly, when they are not
/// installed outside CI; a panic when the document is invalid.
fn valid_to_reference(kind: &str, document: &str) -> bool {
    let file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    std::fs::write(file.path(), document).unwrap();
    let Some(out) = crate::common::python_reference(
        "validate_sbom.py",
        &[std::ffi::OsStr::new(kind), file.path().as_os_str()],
        &format!("the {kind} SBOM"),
        "pip install 'cyclonedx-python-lib[json-validation]' spdx-tools",
    ) else {
        return false;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{kind} SBOM refused by its reference validator:\n{stderr}\n{document}"
    );
    true
}

/// A project with a registry package and its dependencies, a path skill
/// and a git skill.
fn project(ctx: &TestContext) -> std::path::PathBuf {
    let app = new_project(ctx, None);
    ctx.ok_in(&app, &["add", "example/report-writer"]);
    write_skill(
        &app.join("tools"),
        "helper",
        &skill_md("helper", "Helps. Use when asked."),
    );
    ctx.ok_in(&app, &["add", "--path", "tools/helper"]);
    let repo = ctx.root().join("repo");
    write_skill(
        &repo.join("skills"),
        "linter",
        &skill_md("linter", "Lints. Use when asked."),
    );
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "linter"]);
    ctx.ok_in(&app, &["add", &format!("file://{}", repo.display())]);
    app
}

fn sbom(ctx: &TestContext, app: &Path, format: &str) -> String {
    let mut cmd = ctx.command();
    cmd.current_dir(app)
        .env("SOURCE_DATE_EPOCH", "1795000000")
        .args(["sbom", "--format", format]);
    let out = crate::common::run(&mut cmd).assert_ok();
    out.stdout
}

#[test]
fn both_formats_list_every_locked_skill_and_pass_their_reference_validators() {
    let ctx = TestContext::new();
    let app = project(&ctx);

    let cyclonedx = sbom(&ctx, &app, "cyclonedx");
    let bom: serde_json::Value = serde_json::from_str(&cyclonedx).unwrap();
    assert_eq!(bom["specVersion"], "1.6");
    let names: Vec<&str> = bom["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    // The lock's order: by lock name.
    assert_eq!(
        names,
        [
            "citation-style",
            "pdf-processing",
            "report-writer",
            "helper",
            "linter"
        ]
    );
    let report = &bom["components"][2];
    assert_eq!(report["group"], "example");
    assert_eq!(report["hashes"][0]["alg"], "SHA-256");
    assert!(
        report["properties"].to_string().contains("skillpkg:signer"),
        "{report}"
    );
    // The project depends on what it asked for; report-writer on its own.
    let project_deps = &bom["dependencies"][0]["dependsOn"];
    assert!(
        !project_deps.to_string().contains("pdf-processing"),
        "{project_deps}"
    );
    assert!(
        bom["dependencies"]
            .to_string()
            .contains("skill:example/pdf-processing"),
        "{}",
        bom["dependencies"]
    );
    valid_to_reference("cyclonedx", &cyclonedx);

    let spdx = sbom(&ctx, &app, "spdx");
    let doc: serde_json::Value = serde_json::from_str(&spdx).unwrap();
    assert_eq!(doc["spdxVersion"], "SPDX-2.3");
    assert_eq!(doc["creationInfo"]["created"], "2026-11-18T11:06:40Z");
    assert_eq!(doc["packages"].as_array().unwrap().len(), 5);
    let depends = doc["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["relationshipType"] == "DEPENDS_ON")
        .count();
    assert_eq!(depends, 2);
    valid_to_reference("spdx", &spdx);
}

#[test]
fn the_same_lock_gives_the_same_document() {
    let ctx = TestContext::new();
    let app = project(&ctx);
    for format in ["cyclonedx", "spdx"] {
        assert_eq!(
            sbom(&ctx, &app, format),
            sbom(&ctx, &app, format),
            "{format}"
        );
    }
    // Another lock, another id.
    let before = sbom(&ctx, &app, "cyclonedx");
    ctx.ok_in(&app, &["remove", "helper"]);
    let after = sbom(&ctx, &app, "cyclonedx");
    let serial = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text).unwrap()["serialNumber"].clone()
    };
    assert_ne!(serial(&before), serial(&after));
}
