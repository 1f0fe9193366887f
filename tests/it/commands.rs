//! `new`, `show`, `prompt`, `completions` and the CLI's conventions.

use std::path::Path;

use crate::common::{TestContext, run, skill_md, write_skill};

#[test]
fn new_scaffolds_a_skill_that_validates_and_strict_points_at_its_placeholders() {
    let ctx = TestContext::new();
    let made = ctx.ok(&["new", "report-writer"]);
    insta::assert_snapshot!(ctx.redact(&made.stderr), @r"
         Created skill `report-writer` at [TEMP]/project/report-writer
            Next edit [TEMP]/project/report-writer/SKILL.md then run `skillpkg validate --strict [TEMP]/project/report-writer`, which points at the placeholder text left
    ");
    let dir = ctx.project.join("report-writer");
    let skill_md = dir.join("SKILL.md");
    let text = std::fs::read_to_string(&skill_md).unwrap();
    assert!(
        text.contains("\nmetadata:\n  version: \"0.1.0\"\n---\n"),
        "the version publish reads: {text}"
    );
    let check = run(ctx.command().args(["validate", "--json"]).arg(&dir)).assert_ok();
    let reports: serde_json::Value = serde_json::from_str(&check.stdout).unwrap();
    assert_eq!(reports[0]["problems"], serde_json::json!([]), "it is valid");

    // Strict, each piece of placeholder text is named with its line.
    let strict = ctx.ok(&["validate", "--strict", "report-writer"]);
    insta::assert_snapshot!(strict.stdout, @r"
    report-writer/SKILL.md:3: warning[template-placeholder]: The description is still the placeholder `skillpkg new` wrote: say what the skill does and when to use it
    report-writer/SKILL.md:12: warning[template-placeholder]: The body still has the placeholder text `skillpkg new` wrote: replace it with the skill's instructions
    report-writer/SKILL.md:16: warning[template-placeholder]: The body still has the placeholder text `skillpkg new` wrote (through line 18): replace it with the skill's instructions
    report-writer: valid
    ");

    // Once the author has written their own, strict has nothing to say.
    let mut written = String::new();
    for line in text.lines() {
        let line = match line {
            l if l.starts_with("description:") => {
                "description: Writes short reports. Use when the user asks for a report."
            }
            l if l.starts_with("Describe ") => "Reports on documents the user gives.",
            l if l.starts_with("1. ") => "1. Read the documents.",
            l if l.starts_with("2. ") => "2. Write the report.",
            l if l.starts_with("   ") => continue,
            l => l,
        };
        written.push_str(line);
        written.push('\n');
    }
    std::fs::write(&skill_md, written).unwrap();
    let check = run(ctx
        .command()
        .args(["validate", "--strict", "--json"])
        .arg(&dir))
    .assert_ok();
    let reports: serde_json::Value = serde_json::from_str(&check.stdout).unwrap();
    assert_eq!(
        reports[0]["problems"],
        serde_json::json!([]),
        "no warnings either"
    );

    // A description with YAML-special characters is quoted correctly.
    ctx.ok(&[
        "new",
        "quoted",
        "--path",
        ".agents/skills",
        "-d",
        "Use when: a \"quote\" # appears",
    ]);
    let shown = ctx.run(&["show", "quoted", "--json"]);
    let shown: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(shown["description"], "Use when: a \"quote\" # appears");

    // Existing directories and invalid names are refused.
    let again = ctx.fails(&["new", "report-writer"]);
    insta::assert_snapshot!(ctx.redact(&again.stderr), @"error: [TEMP]/project/report-writer already exists; choose another name or directory");
    let bad = ctx.fails(&["new", "Bad_Name"]);
    insta::assert_snapshot!(bad.stderr, @"
    error: invalid skill name 'Bad_Name': Skill name 'Bad_Name' must be lowercase
    hint: names use lowercase letters, digits and single hyphens, at most 64 characters
    ");
}

#[test]
fn show_lists_files_and_unknown_names_fail_with_a_hint() {
    let ctx = TestContext::new();
    let dir = write_skill(
        &ctx.project_root(),
        "tool",
        &skill_md("tool", "A tool. Use when testing."),
    );
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
    let out = ctx.ok(&["show", "tool"]);
    insta::assert_snapshot!(ctx.redact(&out.stdout), @"
    name:          tool
    description:   A tool. Use when testing.
    root:          project
    location:      [TEMP]/project/.agents/skills/tool/SKILL.md
    files:
      SKILL.md
      scripts/run.sh
    ");

    let missing = ctx.fails(&["show", "nope"]);
    insta::assert_snapshot!(missing.stderr, @r"
    error: no skill named 'nope' in any root
    hint: run `skillpkg list` to see the skills every root provides
    ");
}

#[test]
fn prompt_hides_skills_the_model_may_not_invoke() {
    let ctx = TestContext::new();
    write_skill(
        &ctx.project_root(),
        "manual",
        "---\nname: manual\ndescription: Only by hand. Use when asked.\ndisable-model-invocation: true\n---\n",
    );
    write_skill(
        &ctx.project_root(),
        "auto",
        &skill_md("auto", "Says <hi> & 'bye'. Use when greeting."),
    );
    let xml = ctx.run(&["prompt"]);
    assert!(!xml.stdout.contains("<name>\nmanual\n</name>"));
    assert!(
        xml.stdout
            .contains("Says &lt;hi&gt; &amp; &#x27;bye&#x27;. Use when greeting.")
    );
    let md = ctx.run(&["prompt", "--format", "markdown"]);
    assert!(md.stdout.starts_with("## Available skills\n"));
    assert!(
        md.stdout
            .contains("- **auto**: Says <hi> & 'bye'. Use when greeting. (`")
    );
    // `list` still shows it: it exists, the model just cannot activate it.
    let list = ctx.run(&["list"]);
    assert!(list.stdout.contains("manual"));
}

#[test]
fn prompt_task_fits_the_catalog_into_the_budget_exec_would_give_it() {
    let ctx = TestContext::new();
    for i in 0..20 {
        let name = format!("tool-{i:02}");
        let description = format!(
            "Tool {i} works on reports in many ways. {}Use when reporting.",
            "It does a lot. ".repeat(8)
        );
        write_skill(&ctx.project_root(), &name, &skill_md(&name, &description));
    }
    // The project's model reports a window of 10,000 tokens: 800 characters.
    std::fs::write(
        ctx.project.join("model.json"),
        r#"{"turns": [{"text": "done"}], "context_window": 10000}"#,
    )
    .unwrap();
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[agent]\nmodel = \"scripted:model.json\"\n",
    )
    .unwrap();
    ctx.ok(&["trust", "--project"]);
    let plan = ctx.ok(&["exec", "--dry-run", "--json", "write the report"]);
    let plan: serde_json::Value = serde_json::from_str(&plan.stdout).unwrap();
    assert_eq!(plan["catalog"]["budget"], 800);
    let catalog = ctx.ok(&["prompt", "--task", "write the report"]).stdout;
    assert!(
        plan["system"]
            .as_str()
            .unwrap()
            .ends_with(catalog.trim_end()),
        "prompt --task prints the catalog exec builds:\n{catalog}\n{}",
        plan["system"]
    );
    assert!(catalog.len() < 1_000, "{catalog}");
    // --budget still sets it.
    let wide = ctx
        .ok(&["prompt", "--task", "write the report", "--budget", "8000"])
        .stdout;
    assert!(wide.len() > catalog.len());
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    let ctx = TestContext::new();
    assert_eq!(ctx.run(&["frobnicate"]).status, 2);
    assert_eq!(ctx.run(&["validate"]).status, 2);
    let help = ctx.ok(&["--help"]);
    for command in ["list", "show", "prompt", "validate", "new", "completions"] {
        assert!(
            help.stdout.contains(command),
            "{command} missing from --help"
        );
    }
}

#[test]
fn quiet_hides_status_and_warnings() {
    let ctx = TestContext::new();
    write_skill(&ctx.project_root(), "broken", "no frontmatter\n");
    let out = ctx.ok(&["-q", "list"]);
    assert_eq!(out.stderr, "");
}

#[test]
fn committed_completions_are_current() {
    let ctx = TestContext::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    let update = std::env::var_os("SKILLPKG_UPDATE_COMPLETIONS").is_some();
    for (shell, file) in [
        ("bash", "skillpkg.bash"),
        ("zsh", "_skillpkg"),
        ("fish", "skillpkg.fish"),
        ("powershell", "_skillpkg.ps1"),
        ("elvish", "skillpkg.elv"),
    ] {
        let out = ctx.ok(&["completions", shell]);
        assert!(out.stdout.contains("skillpkg"));
        let path = dir.join(file);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &out.stdout).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == out.stdout,
            "{} is stale: run `SKILLPKG_UPDATE_COMPLETIONS=1 cargo test --test it completions`",
            path.display()
        );
    }
}

#[test]
fn init_writes_a_manifest_once_and_makes_a_project() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("fresh");
    run(ctx.command().arg("init").arg(&dir)).assert_ok();
    let text = std::fs::read_to_string(dir.join("skills.toml")).unwrap();
    assert!(text.contains("[skills]"));
    let again = run(ctx.command().arg("init").arg(&dir)).assert_fails();
    insta::assert_snapshot!(ctx.redact(&again.stderr), @"
    error: [TEMP]/fresh/skills.toml already exists
    hint: add skills to it with `skillpkg add org/name`
    ");
    assert_eq!(
        std::fs::read_to_string(dir.join("skills.toml")).unwrap(),
        text
    );

    // The new manifest marks the project: its root is found from inside.
    write_skill(
        &dir.join(".agents/skills"),
        "mine",
        &skill_md("mine", "Mine. Use when testing."),
    );
    let out = ctx.ok_in(&dir, &["show", "mine", "--json"]);
    assert!(out.stdout.contains("\"root\": \"project\""));
}

#[test]
fn output_that_cannot_be_written_fails_the_command() {
    let ctx = TestContext::new();
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("SKIPPED: no /dev/full on this machine");
        return;
    };
    let out = run(ctx.command().args(["-q", "list", "--json"]).stdout(full));
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("could not write the output to stdout"),
        "{}",
        out.stderr
    );
}

/// The mode of a file, permission bits only.
#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
#[cfg(unix)]
fn files_meant_to_be_committed_or_shared_respect_the_umask() {
    use std::os::unix::process::CommandExt as _;
    for (umask, expected) in [(0o022, 0o644), (0o027, 0o640)] {
        let ctx = TestContext::new();
        let app = ctx.root().join("app");
        std::fs::create_dir_all(&app).unwrap();
        let skill = write_skill(&app, "mine", &skill_md("mine", "Mine. Use when testing."));
        let with_umask = |args: &[&str]| {
            let mut cmd = ctx.command();
            cmd.current_dir(&app).args(args);
            // SAFETY: umask(2) is async-signal-safe and cannot fail.
            unsafe {
                cmd.pre_exec(move || {
                    libc::umask(umask);
                    Ok(())
                });
            }
            run(&mut cmd).assert_ok()
        };
        with_umask(&["init"]);
        with_umask(&["add", "mine", "--path", "mine"]);
        with_umask(&["pack", skill.to_str().unwrap()]);
        let packed = std::fs::read_dir(&app)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "skill"))
            .expect("a packed skill");
        let shared = ["skills.toml", "skills.lock", ".skillpkg/.gitignore"].map(|f| app.join(f));
        for path in shared.iter().chain([&packed]) {
            assert_eq!(
                mode_of(path),
                expected,
                "{} under umask {umask:o}",
                path.display()
            );
        }
        // A mode the user chose is kept when the file is rewritten.
        let manifest = app.join("skills.toml");
        std::fs::set_permissions(
            &manifest,
            std::os::unix::fs::PermissionsExt::from_mode(0o600),
        )
        .unwrap();
        with_umask(&["remove", "mine"]);
        assert_eq!(mode_of(&manifest), 0o600);
    }
}

#[test]
fn unknown_tables_and_keys_in_the_manifest_warn_naming_the_closest_known_one() {
    let ctx = TestContext::new();
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[skills]\n\n[instal]\ntargets = [\"claude\"]\n\n[agent]\nmodle = \"scripted:x.json\"\n",
    )
    .unwrap();
    let out = ctx.ok(&["list"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    warning: skills.toml: unknown key `instal`, ignored; did you mean `install`?
    warning: skills.toml: unknown key `agent.modle`, ignored; did you mean `model`?
    ");
    // Once per run, whatever the command reads.
    let out = ctx.ok(&["install"]);
    assert_eq!(
        out.stderr.matches("unknown key `instal`").count(),
        1,
        "{}",
        out.stderr
    );
}

#[test]
fn counts_of_one_are_singular() {
    let ctx = TestContext::new();
    let skill = write_skill(
        ctx.root(),
        "solo",
        &skill_md("solo", "Alone. Use when testing."),
    );
    let out = ctx.ok(&["pack", skill.to_str().unwrap()]);
    assert!(out.stderr.contains("solo (1 file, "), "{}", out.stderr);
}

/// The long flags a `--help` text lists, without the global ones.
fn long_flags(help: &str) -> Vec<String> {
    let mut flags: Vec<String> = help
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line
                .strip_prefix('-')
                .filter(|l| !l.starts_with('-'))
                .map_or(line, |l| l.split_once(", ").map_or(line, |(_, rest)| rest));
            let flag = line.strip_prefix("--")?;
            let flag: String = flag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            Some(format!("--{flag}"))
        })
        .filter(|f| !["--help", "--quiet", "--verbose", "--version"].contains(&f.as_str()))
        .collect();
    flags.dedup();
    flags
}

/// The subcommands a `--help` text lists.
fn subcommands(help: &str) -> Vec<String> {
    let Some((_, rest)) = help.split_once("Commands:\n") else {
        return Vec::new();
    };
    rest.lines()
        .take_while(|line| line.starts_with("  "))
        // Not the wrapped lines of a description.
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readmes_usage_block_lists_every_flag_of_every_command() {
    let ctx = TestContext::new();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let usage = readme
        .split("```sh\n")
        .find(|block| block.starts_with("skillpkg init [DIR]"))
        .expect("the usage block")
        .split("```")
        .next()
        .unwrap();
    // Each command's lines: those that start with it, and the lines
    // indented under them; the installing commands share the comment.
    let lines_of = |command: &str| {
        let mut text = String::new();
        let mut inside = false;
        for line in usage.lines() {
            if line.starts_with("skillpkg ") {
                inside = line.starts_with(&format!("skillpkg {command} "))
                    || line == format!("skillpkg {command}");
            }
            if inside || (line.trim_start().starts_with('#') && INSTALLING.contains(&command)) {
                text.push_str(line);
                text.push('\n');
            }
        }
        text
    };
    const INSTALLING: [&str; 5] = ["add", "remove", "install", "import", "update"];
    let mut missing = Vec::new();
    for command in subcommands(&ctx.ok(&["--help"]).stdout) {
        let help = ctx.ok(&[&command, "--help"]).stdout;
        let mut flags = long_flags(&help);
        for sub in subcommands(&help) {
            flags.extend(long_flags(&ctx.ok(&[&command, &sub, "--help"]).stdout));
        }
        let listed = lines_of(&command);
        assert!(
            !listed.is_empty(),
            "README's usage block has no line for `{command}`"
        );
        for flag in flags {
            let shown = listed.contains(&format!("{flag} "))
                || listed.contains(&format!("{flag}]"))
                || listed.contains(&format!("{flag}\n"));
            if !shown {
                missing.push(format!("{command} {flag}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "README's usage block leaves out: {missing:?}"
    );
}

#[test]
fn help_lists_a_commands_own_flags_first_in_its_own_words() {
    let ctx = TestContext::new();
    let help = ctx.ok(&["remove", "--help"]).stdout;
    assert!(
        help.contains("--force  ")
            && help.contains("Remove managed skills even if they were edited locally"),
        "{help}"
    );
    assert!(!help.contains("Replace managed skills"), "{help}");
    // Only what removing uses: nothing about installing new skills (the
    // skills that stay are checked again, so the limits they were
    // installed within apply).
    assert_eq!(
        long_flags(&help),
        [
            "--force",
            "--offline",
            "--allow-unsigned",
            "--global",
            "--max-skill-size"
        ],
        "{help}"
    );
    let add = ctx.ok(&["add", "--help"]).stdout;
    assert!(
        add.contains("Replace managed skills even if they were edited locally"),
        "{add}"
    );
    // The global flags come last, after the command's own.
    for help in [help, add] {
        let options: Vec<&str> = help
            .lines()
            .filter(|l| l.trim_start().starts_with('-'))
            .map(str::trim_start)
            .collect();
        let tail: Vec<&str> = options.iter().rev().take(2).rev().copied().collect();
        assert!(
            tail[0].starts_with("-q, --quiet") && tail[1].starts_with("-v, --verbose"),
            "{options:#?}"
        );
    }
}

/// Hints name commands to paste: a path with a space or a quote (or a
/// `$`, a glob, a leading `-`) is quoted so that the shell reads it back
/// as it is.
#[test]
fn hints_quote_the_paths_and_names_they_put_on_a_command_line() {
    let ctx = TestContext::new();
    let project = ctx.root().join("it's my project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("skills.toml"),
        "[install]\nroot = \"my $skills\"\n",
    )
    .unwrap();
    let out = ctx.ok_in(&project, &["new", "report"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r"
         Created skill `report` at [TEMP]/it's my project/report
            Next edit [TEMP]/it's my project/report/SKILL.md then run `skillpkg validate --strict '[TEMP]/it'\''s my project/report'`, which points at the placeholder text left
    ");

    // A skill that breaks the specification's rules, installed into a
    // root whose name holds a `$`.
    write_skill(
        &project,
        "extra",
        "---\nname: extra\ndescription: Extra. Use when testing.\nversion: 1\n---\nBody.\n",
    );
    let out = ctx.ok_in(&project, &["add", "--path", "extra"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
    warning: extra breaks the specification's rules (unknown-field), and is installed as agents load it; `skillpkg validate 'my $skills/extra'` shows why, and --require-valid refuses such skills
       Installed extra h1:GuuHN84e
    ");

    // A folder that is no index yet.
    std::fs::create_dir_all(project.join("an index")).unwrap();
    let manifest = project.join("skills.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!("{text}\n[registries]\ndefault = {{ index = \"an index\" }}\n"),
    )
    .unwrap();
    let out = ctx.fails_in(&project, &["search", "x"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr), @r"
    error: [TEMP]/it's my project/an index is not a skill index: it has no config.json
    hint: create one with `skillpkg index init '[TEMP]/it'\''s my project/an index'`
    ");
}
