//! `skillpkg validate`: both sides of every rule's boundary, each checked
//! against the expected verdict and rule, and against the reference validator.

use std::path::PathBuf;

use crate::common::{TestContext, reference_verdicts, run, skillpkg_verdicts};

/// (label, directory name, SKILL.md bytes, expected: None = valid, Some(rule) = that error).
type Case = (&'static str, String, Vec<u8>, Option<&'static str>);

fn doc(fields: &str) -> Vec<u8> {
    format!("---\n{fields}---\n\n# Body\n").into_bytes()
}

fn named(name: &str) -> Vec<u8> {
    doc(&format!(
        "name: {name}\ndescription: Does things. Use when testing.\n"
    ))
}

#[expect(
    clippy::too_many_lines,
    reason = "a table of cases, one per rule boundary"
)]
fn cases() -> Vec<Case> {
    let d = "description: Does things. Use when testing.\n";
    let a64 = "a".repeat(64);
    let a65 = "a".repeat(65);
    // U+FB03 is one code point that NFKC expands to three ("ffi").
    let ligatures = "\u{fb03}".repeat(22);
    let mut cases: Vec<Case> = vec![
        ("name 64 chars", a64.clone(), named(&a64), None),
        (
            "name 65 chars",
            a65.clone(),
            named(&a65),
            Some("name-length"),
        ),
        (
            "name NFKC-expands past 64",
            "ffi".repeat(22),
            named(&ligatures),
            Some("name-length"),
        ),
        (
            "name uppercase ascii",
            "Abc".into(),
            named("Abc"),
            Some("name-lowercase"),
        ),
        (
            "name uppercase non-ascii",
            "ÉTÉ".into(),
            named("ÉTÉ"),
            Some("name-lowercase"),
        ),
        (
            "name lowercase non-ascii",
            "été-café".into(),
            named("été-café"),
            None,
        ),
        (
            "name cyrillic and cjk",
            "данные-漢字".into(),
            named("данные-漢字"),
            None,
        ),
        (
            "name combining mark (no precomposed form)",
            "x\u{301}a".into(),
            named("x\u{301}a"),
            Some("name-characters"),
        ),
        (
            "name combining mark NFKC composes",
            "e\u{301}a".into(),
            named("e\u{301}a"),
            None,
        ),
        ("name digits only", "12345".into(), named("12345"), None),
        (
            "name leading hyphen",
            "-abc".into(),
            named("'-abc'"),
            Some("name-hyphen"),
        ),
        (
            "name trailing hyphen",
            "abc-".into(),
            named("abc-"),
            Some("name-hyphen"),
        ),
        (
            "name double hyphen",
            "a--b".into(),
            named("a--b"),
            Some("name-hyphen"),
        ),
        ("name single hyphens", "a-b-c".into(), named("a-b-c"), None),
        (
            "name underscore",
            "a_b".into(),
            named("a_b"),
            Some("name-characters"),
        ),
        (
            "name directory mismatch",
            "other".into(),
            named("abc"),
            Some("name-directory-mismatch"),
        ),
        (
            "name NFKC-equivalent directory",
            "\u{fb01}le".into(),
            named("file"),
            None,
        ),
        (
            "name NFKC-normalised in file",
            "file".into(),
            named("\u{fb01}le"),
            None,
        ),
        (
            "name empty",
            "x".into(),
            doc(&format!("name: ''\n{d}")),
            Some("name-missing"),
        ),
        ("name missing", "x".into(), doc(d), Some("name-missing")),
        (
            "name a mapping",
            "x".into(),
            doc(&format!("name:\n  a: b\n{d}")),
            Some("name-missing"),
        ),
        (
            "description 1024",
            "x".into(),
            doc(&format!("name: x\ndescription: {}\n", "d".repeat(1024))),
            None,
        ),
        (
            "description 1025",
            "x".into(),
            doc(&format!("name: x\ndescription: {}\n", "d".repeat(1025))),
            Some("description-length"),
        ),
        (
            "description 1024 multibyte",
            "x".into(),
            doc(&format!("name: x\ndescription: {}\n", "é".repeat(1024))),
            None,
        ),
        (
            "description 1025 multibyte",
            "x".into(),
            doc(&format!("name: x\ndescription: {}\n", "漢".repeat(1025))),
            Some("description-length"),
        ),
        (
            "description blank",
            "x".into(),
            doc("name: x\ndescription: '   '\n"),
            Some("description-missing"),
        ),
        (
            "description missing",
            "x".into(),
            doc("name: x\n"),
            Some("description-missing"),
        ),
        (
            "description literal block",
            "x".into(),
            doc("name: x\ndescription: |\n  Line one.\n  Line two.\n"),
            None,
        ),
        (
            "description folded block",
            "x".into(),
            doc("name: x\ndescription: >-\n  Folded\n  text.\n"),
            None,
        ),
        (
            "compatibility 500",
            "x".into(),
            doc(&format!("name: x\n{d}compatibility: {}\n", "c".repeat(500))),
            None,
        ),
        (
            "compatibility 501",
            "x".into(),
            doc(&format!("name: x\n{d}compatibility: {}\n", "c".repeat(501))),
            Some("compatibility-length"),
        ),
        (
            "compatibility a list",
            "x".into(),
            doc(&format!("name: x\n{d}compatibility:\n  - linux\n")),
            Some("compatibility-type"),
        ),
        (
            "compatibility empty",
            "x".into(),
            doc(&format!("name: x\n{d}compatibility: ''\n")),
            None,
        ),
        (
            "all optional fields",
            "x".into(),
            doc(&format!(
                "name: x\n{d}license: MIT\nallowed-tools: Bash(git:*) Read\nmetadata:\n  version: '1.0'\ncompatibility: linux\n"
            )),
            None,
        ),
        (
            "wrong-case known field",
            "x".into(),
            doc(&format!("name: x\n{d}License: MIT\n")),
            Some("unknown-field"),
        ),
        (
            "duplicate keys",
            "x".into(),
            doc(&format!("name: x\nname: x\n{d}")),
            Some("yaml-invalid"),
        ),
        (
            "flow sequence",
            "x".into(),
            doc(&format!("name: x\n{d}metadata: [a]\n")),
            Some("yaml-invalid"),
        ),
        (
            "flow mapping",
            "x".into(),
            doc(&format!("name: x\n{d}metadata: {{a: b}}\n")),
            Some("yaml-invalid"),
        ),
        (
            "anchor and alias",
            "x".into(),
            doc(&format!("name: &n x\n{d}license: *n\n")),
            Some("yaml-invalid"),
        ),
        (
            "tag",
            "x".into(),
            doc(&format!("name: !!str x\n{d}")),
            Some("yaml-invalid"),
        ),
        (
            "bad yaml",
            "x".into(),
            doc(&format!("name: x: y\n{d}")),
            Some("yaml-invalid"),
        ),
        (
            "scalars stay strings",
            "123".into(),
            doc(&format!("name: 123\n{d}license: true\n")),
            None,
        ),
        (
            "no frontmatter",
            "x".into(),
            b"# Just markdown\n".to_vec(),
            Some("frontmatter-missing"),
        ),
        (
            "frontmatter after a blank line",
            "x".into(),
            [b"\n".as_slice(), &named("x")].concat(),
            Some("frontmatter-missing"),
        ),
        (
            "unclosed frontmatter",
            "x".into(),
            format!("---\nname: x\n{d}").into_bytes(),
            Some("frontmatter-unclosed"),
        ),
        (
            "non-mapping frontmatter",
            "x".into(),
            doc("- a\n- b\n"),
            Some("frontmatter-not-mapping"),
        ),
        (
            "scalar frontmatter",
            "x".into(),
            doc("just text\n"),
            Some("frontmatter-not-mapping"),
        ),
        (
            "empty frontmatter",
            "x".into(),
            doc(""),
            Some("frontmatter-not-mapping"),
        ),
        (
            "CRLF line ends",
            "x".into(),
            String::from_utf8(named("x"))
                .unwrap()
                .replace('\n', "\r\n")
                .into_bytes(),
            None,
        ),
        (
            "not UTF-8",
            "x".into(),
            [named("x"), vec![0xff, 0xfe]].concat(),
            Some("encoding"),
        ),
    ];
    for field in [
        "version",
        "tags",
        "author",
        "user-invocable",
        "allowed_tools",
    ] {
        cases.push((
            "unknown field",
            "x".into(),
            doc(&format!("name: x\n{d}{field}: v\n")),
            Some("unknown-field"),
        ));
    }
    cases
}

fn write_cases(ctx: &TestContext, cases: &[Case]) -> Vec<PathBuf> {
    cases
        .iter()
        .enumerate()
        .map(|(i, (_, dir, text, _))| {
            let dir = ctx.root().join(format!("case-{i}")).join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("SKILL.md"), text).unwrap();
            dir
        })
        .collect()
}

#[test]
fn every_rule_on_both_sides_of_its_boundary() {
    let ctx = TestContext::new();
    let cases = cases();
    let dirs = write_cases(&ctx, &cases);
    let ours = skillpkg_verdicts(&ctx, &dirs);
    for ((label, _, _, expected), report) in cases.iter().zip(&ours) {
        let rules: Vec<&str> = report["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["severity"] == "error")
            .map(|p| p["rule"].as_str().unwrap())
            .collect();
        match expected {
            None => assert!(rules.is_empty(), "{label}: expected valid, got {rules:?}"),
            Some(rule) => assert!(
                rules.contains(rule),
                "{label}: expected {rule}, got {rules:?}"
            ),
        }
        assert_eq!(report["valid"], expected.is_none(), "{label}");
    }
    if let Some(reference) = reference_verdicts(&dirs) {
        for ((label, ..), (theirs, ours)) in cases.iter().zip(reference.iter().zip(&ours)) {
            assert_eq!(
                theirs["valid"], ours["valid"],
                "{label}: reference says {}",
                theirs["errors"]
            );
        }
    }
}

#[test]
fn lowercase_skill_md_and_file_paths_are_accepted() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("lower");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("skill.md"), named("lower")).unwrap();
    let out = run(ctx
        .command()
        .arg("validate")
        .arg(&dir)
        .arg(dir.join("skill.md")))
    .assert_ok();
    assert_eq!(out.stdout.matches(": valid").count(), 2);
}

#[test]
fn output_names_file_rule_and_message_and_exit_code_reflects_validity() {
    let ctx = TestContext::new();
    let good = ctx.root().join("good");
    std::fs::create_dir_all(&good).unwrap();
    std::fs::write(good.join("SKILL.md"), named("good")).unwrap();
    let bad = ctx.root().join("Bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("SKILL.md"), named("Bad")).unwrap();

    run(ctx.command().arg("validate").arg(&good)).assert_ok();

    let out = run(ctx
        .command()
        .arg("validate")
        .arg(&good)
        .arg(&bad)
        .arg(ctx.root().join("missing")))
    .assert_fails();
    let stdout = ctx.redact(&out.stdout);
    insta::assert_snapshot!(stdout, @r"
    [TEMP]/good: valid
    [TEMP]/Bad/SKILL.md: error[name-lowercase]: Skill name 'Bad' must be lowercase
    [TEMP]/missing: error[path-missing]: Path does not exist: [TEMP]/missing
    ");
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"   Validated 3 skills: 1 valid, 2 invalid");
}

#[test]
fn yaml_errors_carry_the_line() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("x");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: x\ndescription: ok\nmetadata: [a, b]\n---\n",
    )
    .unwrap();
    let out = run(ctx.command().args(["validate", "--json"]).arg(&dir)).assert_fails();
    let reports: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let problem = &reports[0]["problems"][0];
    assert_eq!(problem["rule"], "yaml-invalid");
    assert_eq!(problem["line"], 4, "{problem}");
}

#[test]
fn strict_mode_adds_warnings_without_failing() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("terse");
    std::fs::create_dir_all(&dir).unwrap();
    let body = "line\n".repeat(501);
    std::fs::write(
        dir.join("SKILL.md"),
        format!(
            "---\nname: terse\ndescription: Does <things>.\ncompatibility: ''\nmetadata:\n  a:\n    b: c\nallowed-tools: Read, Write\n---\nSee [guide](references/missing.md) and [deep](references/deep.md).\nWrite the result to `references/report.md`.\n{body}"
        ),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(
        dir.join("references/deep.md"),
        "Go on to [next](next.md).\n",
    )
    .unwrap();
    std::fs::write(dir.join("references/next.md"), "end\n").unwrap();
    // A right-to-left override an installer would warn about.
    std::fs::write(dir.join("references/rtl.md"), "safe \u{202E}txt.exe\n").unwrap();

    let plain = run(ctx.command().arg("validate").arg(&dir)).assert_ok();
    assert!(!plain.stdout.contains("warning"));

    let out = run(ctx
        .command()
        .args(["validate", "--strict", "--json"])
        .arg(&dir));
    assert_eq!(out.status, 0, "warnings do not make a skill invalid");
    let reports: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let mut rules: Vec<&str> = reports[0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rule"].as_str().unwrap())
        .collect();
    rules.sort_unstable();
    assert_eq!(
        rules,
        [
            "allowed-tools-format",
            "angle-brackets",
            "body-length",
            "compatibility-empty",
            "deep-reference",
            "description-no-trigger",
            "hidden-unicode",
            "metadata-not-string-map",
            "missing-reference"
        ]
    );
    // The link to a missing file is flagged; the path in a code span (a
    // file the skill writes) is not.
    let problems = reports[0]["problems"].as_array().unwrap();
    let missing: Vec<&str> = problems
        .iter()
        .filter(|p| p["rule"] == "missing-reference")
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        missing,
        ["Referenced file 'references/missing.md' does not exist"]
    );
    let hidden = problems
        .iter()
        .find(|p| p["rule"] == "hidden-unicode")
        .unwrap();
    assert!(
        hidden["message"]
            .as_str()
            .unwrap()
            .contains("hidden character U+202E (bidi embedding or override)"),
        "{hidden}"
    );
}

#[test]
fn an_allowed_tools_pattern_that_could_disguise_a_prompt_warns_only_with_strict() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("spoof");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: spoof\ndescription: Reads the README. Use when asked about it.\nallowed-tools: \"Bash Read(README.md\\n\\n\\n)\"\n---\nRead it.\n",
    )
    .unwrap();
    // The reference's verdict, unchanged: valid.
    let plain = run(ctx.command().arg("validate").arg(&dir)).assert_ok();
    insta::assert_snapshot!(ctx.redact(&plain.stdout), @"[TEMP]/spoof: valid");
    if let Some(reference) = reference_verdicts(std::slice::from_ref(&dir)) {
        assert_eq!(reference[0]["valid"], true, "{}", reference[0]);
    }

    let strict = run(ctx.command().args(["validate", "--strict"]).arg(&dir)).assert_ok();
    insta::assert_snapshot!(ctx.redact(&strict.stdout), @r"
    [TEMP]/spoof/SKILL.md: warning[allowed-tools-unsafe-chars]: allowed-tools pattern 'Read(README.md\u{a}\u{a}\u{a})' holds a line break, control character or bidirectional mark, which could disguise what an approval prompt shows; agents loading it through skillpkg drop it
    [TEMP]/spoof: valid
    ");
}
