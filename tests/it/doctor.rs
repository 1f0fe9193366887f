//! `skillpkg doctor`: the platform, the sandbox, the agents found,
//! skillpkg's folders and what is missing, as text and JSON.

use crate::common::TestContext;

/// `text` with what changes between releases and builds named.
fn redacted(ctx: &TestContext, text: &str) -> String {
    ctx.redact(text)
        .replace(env!("CARGO_PKG_VERSION"), "[VERSION]")
}

/// The configuration the test binary was built in, for its snapshots.
fn configuration() -> &'static str {
    match cfg!(feature = "linux-sandbox") {
        true => "default",
        false => "portable",
    }
}

#[test]
fn doctor_names_the_platform_sandbox_agents_folders_and_what_is_missing() {
    let ctx = TestContext::new();
    if cfg!(feature = "linux-sandbox") && !crate::sandbox::sandbox_available(&ctx) {
        return;
    }
    std::fs::create_dir_all(ctx.root().join("home/.claude")).unwrap();
    std::fs::create_dir_all(ctx.root().join("home/.cursor")).unwrap();
    std::fs::create_dir_all(ctx.project.join(".agents/skills")).unwrap();
    // A cloned project's model counts only once the user trusts it: the
    // report still says none is configured.
    std::fs::write(
        ctx.project.join("skills.toml"),
        "[agent]\nmodel = \"scripted:model.json\"\n",
    )
    .unwrap();
    let text = ctx.ok(&["doctor"]).stdout;
    let json = ctx.ok(&["doctor", "--json"]).stdout;
    insta::with_settings!({snapshot_suffix => configuration()}, {
        insta::assert_snapshot!("text", redacted(&ctx, &text));
        insta::assert_snapshot!("json", redacted(&ctx, &json));
    });
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["platform"]["os"], std::env::consts::OS);
    assert_eq!(
        report["sandbox"]["set_up"],
        cfg!(feature = "linux-sandbox"),
        "{json}"
    );
}

#[test]
fn version_verbose_names_the_target_and_the_features() {
    let ctx = TestContext::new();
    let short = ctx.ok(&["--version"]).stdout;
    assert_eq!(short, format!("skillpkg {}\n", env!("CARGO_PKG_VERSION")));
    let long = ctx.ok(&["--version", "--verbose"]).stdout;
    let features = match cfg!(feature = "linux-sandbox") {
        true => "linux-sandbox",
        false => "none",
    };
    let target = long
        .lines()
        .find_map(|line| line.strip_prefix("target: "))
        .unwrap_or_default()
        .to_string();
    assert!(
        target.contains(std::env::consts::ARCH) && target.contains(std::env::consts::OS),
        "{long}"
    );
    assert_eq!(
        long,
        format!(
            "skillpkg {}\ntarget: {target}\nfeatures: {features}\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}
