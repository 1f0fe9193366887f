//! `add` as users of `npx skills` type it: a repository given in place of
//! a package, in any of the forms they know (`github:owner/repo`, a git
//! URL, a page of GitHub, an http(s) URL that answers as a git
//! repository), with `--skill`, `--list`, `--rev` and `--subdir`, and no
//! `--git`; `owner/repo` not in the index gets the short form as a hint.
//! GitHub and other hosts are mapped to local repositories through git's
//! `url.<base>.insteadOf` in the test home's `.gitconfig`, and HTTP is
//! served on loopback, so nothing goes to the network.

use std::path::{Path, PathBuf};

use crate::common::{TestContext, git, new_project, skill_md, write_skill};
use crate::git_http::{GitHttpServer, private_repository};

/// A repository like anthropics/skills: `skills/pdf`, `skills/docx`,
/// `skills/docs-writer` and `skills/xlsx`, on `main` and on the branch
/// `feature/x`, where `skills/pdf` says more.
fn skills_repository(ctx: &TestContext, at: &Path) -> PathBuf {
    let work = ctx.root().join("skills-work");
    for name in ["pdf", "docx", "docs-writer", "xlsx"] {
        write_skill(
            &work.join("skills"),
            name,
            &skill_md(name, &format!("Handles {name}. Use when given {name}.")),
        );
    }
    git(&work, &["init", "-q", "-b", "main"]);
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "skills"]);
    git(&work, &["checkout", "-q", "-b", "feature/x"]);
    write_skill(
        &work.join("skills"),
        "pdf",
        &skill_md("pdf", "Handles pdf, on a branch. Use when given pdf."),
    );
    git(&work, &["commit", "-q", "-am", "branch"]);
    git(&work, &["checkout", "-q", "main"]);
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    git(
        ctx.root(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            at.to_str().unwrap(),
        ],
    );
    at.to_path_buf()
}

/// `https://github.com/`, `git@github.com:` and `ssh://git@github.com/`
/// lead to `<temp>/github/`, and `https://git.example.com/` to
/// `<temp>/example/`, for git run by skillpkg in this context.
fn map_hosts(ctx: &TestContext) {
    let github = ctx.root().join("github");
    let example = ctx.root().join("example");
    std::fs::write(
        ctx.root().join("home/.gitconfig"),
        format!(
            "[url \"file://{github}/\"]\n\tinsteadOf = https://github.com/\n\tinsteadOf = git@github.com:\n\tinsteadOf = ssh://git@github.com/\n[url \"file://{example}/\"]\n\tinsteadOf = https://git.example.com/\n",
            github = github.display(),
            example = example.display(),
        ),
    )
    .unwrap();
}

fn installed(app: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(app.join(".agents/skills")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn skills_of(app: &Path) -> String {
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let start = manifest.find("[skills]").unwrap();
    manifest[start..].to_string()
}

#[test]
fn an_owner_repo_the_index_lacks_gets_the_github_short_form_as_hint() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let mut transcript = String::new();
    for args in [
        &["add", "vercel-labs/agent-skills"][..],
        &["add", "Anthropics/skills"],
        &["add", "anthropics/skills/skills/pdf"],
        &["add", "vercel-labs/agent-skills@react-best-practices"],
        &["add", "example/pdf"],
        &["add", "o_x/r"],
    ] {
        transcript += &ctx.fails_in(&app, args).transcript();
    }
    insta::assert_snapshot!(ctx.redact(&transcript), @"
    $ skillpkg add vercel-labs/agent-skills
    error: vercel-labs/agent-skills is not in the index builtin
    hint: check the name with `skillpkg search`
    hint: if vercel-labs/agent-skills is a GitHub repository (as `npx skills add` reads owner/repo): `skillpkg add github:vercel-labs/agent-skills`
    $ skillpkg add Anthropics/skills
    error: invalid package name 'Anthropics/skills': The org 'Anthropics' must be lowercase
    hint: if it is a GitHub repository (as `npx skills add` reads it): `skillpkg add github:Anthropics/skills`
    $ skillpkg add anthropics/skills/skills/pdf
    error: invalid package name 'anthropics/skills/skills/pdf': The name 'skills/skills/pdf' contains invalid characters. Only letters, digits, and hyphens are allowed.
    hint: if it is a GitHub repository (as `npx skills add` reads it): `skillpkg add github:anthropics/skills/skills/pdf`
    $ skillpkg add vercel-labs/agent-skills@react-best-practices
    error: 'vercel-labs/agent-skills@react-best-practices': invalid version requirement 'react-best-practices': unexpected character 'r' while parsing major version number
    hint: if it is a GitHub repository (as `npx skills add` reads it): `skillpkg add github:vercel-labs/agent-skills --skill react-best-practices`
    $ skillpkg add example/pdf
    error: example/pdf is not in the index builtin
    hint: did you mean example/pdf-processing?
    hint: if example/pdf is a GitHub repository (as `npx skills add` reads owner/repo): `skillpkg add github:example/pdf`
    $ skillpkg add o_x/r
    error: invalid package name 'o_x/r': The org 'o_x' contains invalid characters. Only letters, digits, and hyphens are allowed.
    ");
    // Nothing was recorded, and no repository was asked for.
    assert!(!skills_of(&app).contains('='), "{}", skills_of(&app));
}

#[test]
fn the_readmes_short_form_line_adds_the_skills_it_picks() {
    let ctx = TestContext::new();
    map_hosts(&ctx);
    skills_repository(&ctx, &ctx.root().join("github/anthropics/skills"));
    let app = new_project(&ctx, None);

    // README: skillpkg add github:anthropics/skills --skill pdf --skill 'doc*'
    let out = ctx.ok_in(
        &app,
        &[
            "add",
            "github:anthropics/skills",
            "--skill",
            "pdf",
            "--skill",
            "doc*",
        ],
    );
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
           Found 4 skills in https://github.com/anthropics/skills at commit [COMMIT]
       Installed docs-writer [SHORT]
       Installed docx [SHORT]
       Installed pdf [SHORT]
    ");
    assert_eq!(installed(&app), ["docs-writer", "docx", "pdf"]);
    insta::assert_snapshot!(skills_of(&app), @r#"
    [skills]
    pdf = { git = "https://github.com/anthropics/skills", subdir = "skills/pdf" }
    docs-writer = { git = "https://github.com/anthropics/skills", subdir = "skills/docs-writer" }
    docx = { git = "https://github.com/anthropics/skills", subdir = "skills/docx" }
    "#);

    // --list with the short form and with a page of GitHub; neither
    // writes anything.
    let before = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let listed = ctx.ok_in(&app, &["add", "github:anthropics/skills", "--list"]);
    insta::assert_snapshot!(listed.stdout, @"
    docs-writer  skills/docs-writer  Handles docs-writer. Use when given docs-writer.
    docx         skills/docx         Handles docx. Use when given docx.
    pdf          skills/pdf          Handles pdf. Use when given pdf.
    xlsx         skills/xlsx         Handles xlsx. Use when given xlsx.
    ");
    let page = "https://github.com/anthropics/skills/tree/main/skills/xlsx";
    let listed = ctx.ok_in(&app, &["add", page, "--list"]);
    insta::assert_snapshot!(listed.stdout, @"xlsx  skills/xlsx  Handles xlsx. Use when given xlsx.");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.toml")).unwrap(),
        before
    );

    // A page on a branch whose name holds `/`: --rev says where the
    // branch ends and the folder starts.
    let branch_page = "https://github.com/anthropics/skills/tree/feature/x/skills/pdf";
    let listed = ctx.ok_in(&app, &["add", branch_page, "--rev", "feature/x", "--list"]);
    insta::assert_snapshot!(listed.stdout, @"pdf  skills/pdf  Handles pdf, on a branch. Use when given pdf.");

    // A page of one skill's file adds that skill, at the page's revision.
    let other = ctx.root().join("other");
    ctx.ok(&["init", other.to_str().unwrap()]);
    ctx.ok_in(
        &other,
        &[
            "add",
            "https://github.com/anthropics/skills/blob/main/skills/xlsx/SKILL.md",
        ],
    );
    assert_eq!(installed(&other), ["xlsx"]);
    insta::assert_snapshot!(skills_of(&other), @r#"
    [skills]
    xlsx = { git = "https://github.com/anthropics/skills", rev = "main", subdir = "skills/xlsx" }
    "#);
}

#[test]
fn git_urls_in_every_form_are_repositories_without_the_flag() {
    let ctx = TestContext::new();
    map_hosts(&ctx);
    let bare = skills_repository(&ctx, &ctx.root().join("github/anthropics/skills.git"));
    std::fs::create_dir_all(ctx.root().join("example/team")).unwrap();
    std::os::unix::fs::symlink(&bare, ctx.root().join("example/team/skills.git")).unwrap();
    let file = format!("file://{}", bare.display());
    for (i, (source, flags)) in [
        (file.clone(), &["--skill", "pdf"][..]),
        (format!("git+{file}"), &["--skill", "pdf"]),
        (
            "git@github.com:anthropics/skills.git".into(),
            &["--skill", "pdf"],
        ),
        (
            "ssh://git@github.com/anthropics/skills.git".into(),
            &["--skill", "pdf"],
        ),
        (
            "git+ssh://git@github.com/anthropics/skills.git".into(),
            &["--skill", "pdf"],
        ),
        (
            "https://git.example.com/team/skills.git".into(),
            &["--skill", "pdf"],
        ),
        (
            "git+https://git.example.com/team/skills.git".into(),
            &["--skill", "pdf"],
        ),
        (
            file.clone(),
            &["--subdir", "skills/pdf", "--rev", "feature/x"],
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let app = ctx.root().join(format!("app{i}"));
        ctx.ok(&["init", app.to_str().unwrap()]);
        let mut args = vec!["add", source.as_str()];
        args.extend(flags);
        let out = ctx.ok_in(&app, &args);
        assert!(
            out.stderr.contains("Installed pdf "),
            "{source}: {}",
            out.stderr
        );
        assert_eq!(installed(&app), ["pdf"], "{source}");
        // Recorded as `--git` would record it: the URL given (`git+`
        // dropped), the folder and revision.
        let via_flag = ctx.root().join(format!("flag{i}"));
        ctx.ok(&["init", via_flag.to_str().unwrap()]);
        let url = source.strip_prefix("git+").unwrap_or(&source);
        let mut flagged = vec!["add", "--git", url];
        flagged.extend(flags);
        ctx.ok_in(&via_flag, &flagged);
        assert_eq!(skills_of(&app), skills_of(&via_flag), "{source}");
        assert!(
            skills_of(&app).contains(&format!("git = {url:?}")),
            "{source}"
        );
    }
    let last = skills_of(&ctx.root().join("app7"));
    assert!(
        last.contains("rev = \"feature/x\", subdir = \"skills/pdf\""),
        "{last}"
    );
    // --git still takes any text as the repository, as given.
    let app = ctx.root().join("forced");
    ctx.ok(&["init", app.to_str().unwrap()]);
    ctx.ok_in(
        &app,
        &[
            "add",
            "--git",
            &bare.display().to_string(),
            "--skill",
            "xlsx",
        ],
    );
    assert_eq!(installed(&app), ["xlsx"]);
}

#[test]
fn an_http_url_that_answers_as_a_git_repository_is_one() {
    let ctx = TestContext::new();
    let served = ctx.root().join("served");
    private_repository(&ctx, &served);
    let server = GitHttpServer::open_dot_git_only(&served);
    let app = new_project(&ctx, None);
    // `skills` is no repository there; `skills.git` is.
    let out = ctx.ok_in(&app, &["-v", "add", &server.url("skills")]);
    let shown = ctx
        .redact(&out.stderr)
        .replace(&server.addr.to_string(), "[SERVER]");
    assert!(
        shown.contains(
            "note: http://[SERVER]/skills answers as a git repository at http://[SERVER]/skills.git"
        ),
        "{shown}"
    );
    assert!(shown.contains("Installed secret-sauce "), "{shown}");
    let requests = server.requests();
    assert_eq!(
        requests[..2],
        [
            "/skills/info/refs?service=git-upload-pack",
            "/skills.git/info/refs?service=git-upload-pack",
        ],
        "{requests:#?}"
    );
    let recorded = skills_of(&app).replace(&server.addr.to_string(), "[SERVER]");
    insta::assert_snapshot!(recorded, @r#"
    [skills]
    secret-sauce = { git = "http://[SERVER]/skills.git", subdir = "skills/secret-sauce" }
    "#);
}

/// A web server: every path is a page of HTML; it counts requests.
fn web_server() -> (
    std::net::SocketAddr,
    tokio::runtime::Runtime,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = count.clone();
    let (addr, runtime) =
        crate::server::serve_on_loopback(axum::Router::new().fallback(move || {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async {
                (
                    [(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    "<html><body>Our skills</body></html>",
                )
            }
        }));
    (addr, runtime, count)
}

#[test]
fn a_package_name_is_never_taken_for_a_url_nor_probed() {
    let ctx = TestContext::new();
    let (addr, _web, count) = web_server();
    let app = new_project(&ctx, None);
    for text in [
        format!("example/pdf-processing@http://{addr}/r"),
        format!("example/pdf-processing@git@{addr}:r.git"),
    ] {
        let out = ctx.fails_in(&app, &["add", &text]);
        assert!(
            out.stderr.contains("invalid version requirement") && !out.stderr.contains("hint:"),
            "{text}: {}",
            out.stderr
        );
    }
    assert_eq!(count.load(std::sync::atomic::Ordering::Relaxed), 0);
    assert!(!skills_of(&app).contains('='));
}

#[test]
fn an_http_url_that_is_no_repository_fails_saying_what_was_asked() {
    let ctx = TestContext::new();
    let (addr, _web, _) = web_server();
    let fresh = ctx.root().join("fresh");
    std::fs::create_dir_all(&fresh).unwrap();
    let url = format!("http://{addr}/team/skills");
    let out = ctx.fails_in(&fresh, &["add", &url, "--skill", "pdf"]);
    let shown = ctx
        .redact(&out.stderr)
        .replace(&addr.to_string(), "[SERVER]");
    insta::assert_snapshot!(shown, @"
    error: http://[SERVER]/team/skills does not answer as a git repository; asked:
      http://[SERVER]/team/skills/info/refs?service=git-upload-pack: 200 OK, text/html; charset=utf-8
      http://[SERVER]/team/skills.git/info/refs?service=git-upload-pack: 200 OK, text/html; charset=utf-8
    hint: a git server answers there with 200 and application/x-git-upload-pack-advertisement (git's smart HTTP)
    hint: if it is a git repository all the same, `skillpkg add --git http://[SERVER]/team/skills` takes it as one
    hint: packages of an index are added as org/name; a skill in a folder with --path <DIR>
    ");
    // No project was started for the add that failed.
    assert!(!fresh.join("skills.toml").exists());

    // A repository behind credentials answers 401: --git hands it to git,
    // which asks the credential helper.
    let served = ctx.root().join("served");
    private_repository(&ctx, &served);
    let private = GitHttpServer::start(&served, "alice", "s3cret-token");
    let out = ctx.fails_in(&fresh, &["add", &private.url("skills")]);
    let shown = ctx
        .redact(&out.stderr)
        .replace(&private.addr.to_string(), "[SERVER]");
    insta::assert_snapshot!(shown, @"
    error: http://[SERVER]/skills does not answer as a git repository; asked:
      http://[SERVER]/skills/info/refs?service=git-upload-pack: 401 Unauthorized
      http://[SERVER]/skills.git/info/refs?service=git-upload-pack: 401 Unauthorized
    hint: a git server answers there with 200 and application/x-git-upload-pack-advertisement (git's smart HTTP)
    hint: the server asks for credentials: with --git, the fetch gets them from git's credential helper, as git does
    hint: if it is a git repository all the same, `skillpkg add --git http://[SERVER]/skills` takes it as one
    hint: packages of an index are added as org/name; a skill in a folder with --path <DIR>
    ");

    // --offline asks nothing.
    let out = ctx.fails_in(&fresh, &["add", &url, "--offline"]);
    let shown = ctx
        .redact(&out.stderr)
        .replace(&addr.to_string(), "[SERVER]");
    insta::assert_snapshot!(shown, @"
    error: http://[SERVER]/team/skills must be asked whether it is a git repository, and --offline forbids that
    hint: `skillpkg add --git http://[SERVER]/team/skills --offline` takes it as one (from the cache)
    ");
}

#[test]
fn a_repository_named_twice_or_flags_without_one_are_usage_errors() {
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    // As clap reports its own: the message, a tip, add's usage, exit 2.
    let out = ctx.run_in(
        &app,
        &["add", "--git", "https://example.com/a.git", "github:o/r"],
    );
    assert_eq!(out.status, 2, "{}", out.stderr);
    insta::assert_snapshot!(out.stderr, @"
    error: --git 'https://example.com/a.git' names the repository, and 'github:o/r' names one too

      tip: give it once: `skillpkg add github:o/r [--skill <NAME>]...`, or `skillpkg add --git <URL> [NAME]` (the name to record one skill under)

    Usage: skillpkg add [OPTIONS] <PACKAGE>...
           skillpkg add [OPTIONS] <REPOSITORY> [--skill <NAME>]... [--list]
           skillpkg add [OPTIONS] oci://<HOST>/<REPO>(:<TAG>|@<DIGEST>)
           skillpkg add [OPTIONS] --git <URL> [--skill <NAME>]... [--list] [NAME]
           skillpkg add [OPTIONS] --well-known <URL> [--skill <NAME>]... [--list]
           skillpkg add [OPTIONS] --path <DIR> [NAME]

    For more information, try '--help'.
    ");
    let usage = out.stderr[out.stderr.find("Usage:").unwrap()..].to_string();
    let mut transcript = String::new();
    for args in [
        &["add", "github:o/r", "example/pdf-processing"][..],
        &["add", "example/pdf-processing", "--skill", "pdf"],
        &["add", "https://github.com/o/r/tree/main/x", "--rev", "v2"],
        &["add", "github:o/r", "git@github.com:o/r.git"],
    ] {
        let out = ctx.run_in(&app, args);
        assert_eq!(out.status, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.ends_with(&usage), "{}", out.stderr);
        transcript += &format!("$ skillpkg {}\n", args.join(" "));
        for line in out.stderr.lines() {
            if line.starts_with("error:") || line.starts_with("  tip:") {
                transcript += line;
                transcript.push('\n');
            }
        }
    }
    insta::assert_snapshot!(transcript, @"
    $ skillpkg add github:o/r example/pdf-processing
    error: 'github:o/r' names a repository; add it on its own
      tip: `skillpkg add github:o/r [--skill <NAME>]...` picks its skills; packages of an index go in another `skillpkg add`
    $ skillpkg add example/pdf-processing --skill pdf
    error: --skill, --list, --rev and --subdir pick from a repository, and none is named
      tip: name one: `skillpkg add github:owner/repo --skill <NAME>`, a git URL in its place, or --git <URL>
    $ skillpkg add https://github.com/o/r/tree/main/x --rev v2
    error: 'https://github.com/o/r/tree/main/x' names the revision 'main', and --rev 'v2' another: give it once
      tip: `skillpkg add https://github.com/o/r/tree/main/x` alone, or the repository's URL with --rev and --subdir
    $ skillpkg add github:o/r git@github.com:o/r.git
    error: 'github:o/r' and 'git@github.com:o/r.git' name two repositories; add one at a time
      tip: `skillpkg add github:o/r [--skill <NAME>]...`, then `skillpkg add git@github.com:o/r.git [--skill <NAME>]...`
    ");
    // clap's own errors show the same usage.
    let out = ctx.run_in(&app, &["add"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr.ends_with(&usage), "{}", out.stderr);
    let out = ctx.run_in(&app, &["add", "--path", "x", "--skill", "pdf"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr
            .contains("the argument '--path <DIR>' cannot be used with '--skill <NAME>'")
            && out.stderr.ends_with(&usage),
        "{}",
        out.stderr
    );
    let out = ctx.run_in(&app, &["add", "github:o/r", "--path", "x"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr
            .starts_with("error: --path names a folder, and 'github:o/r' names a repository")
            && out.stderr.ends_with(&usage),
        "{}",
        out.stderr
    );
    assert!(!skills_of(&app).contains('='));
}

/// The user's folder `outside`, a git repository holding the skill
/// `precious`, and a cloned project `app` whose skills.toml plants a path
/// into it; `(app, the repository's file: URL)`.
fn cloned_project_and_outside_repository(ctx: &TestContext) -> (PathBuf, String) {
    let outside = ctx.root().join("outside");
    write_skill(
        &outside,
        "precious",
        &skill_md("precious", "Mine. Use when mine."),
    );
    git(&outside, &["init", "-q", "-b", "main"]);
    git(&outside, &["add", "-A"]);
    git(&outside, &["commit", "-q", "-m", "mine"]);
    let app = ctx.root().join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(
        app.join("skills.toml"),
        "[skills]\ndiary = { path = \"../outside/precious\" }\n",
    )
    .unwrap();
    (app, format!("file://{}", outside.display()))
}

#[test]
fn a_file_url_in_place_of_a_package_meets_the_consent_check_as_git_does() {
    let ctx = TestContext::new();
    let (app, url) = cloned_project_and_outside_repository(&ctx);
    // Untrusted, the planted source is refused either way, with the same
    // words; nothing is installed.
    let positional = ctx.fails_in(&app, &["add", &url]);
    let flagged = ctx.fails_in(&app, &["add", "--git", &url]);
    assert_eq!(positional.stderr, flagged.stderr);
    assert!(
        positional.stderr.contains(
            "names sources outside the project, and this project is not trusted on this machine"
        ) && positional
            .stderr
            .contains("  diary: path = \"../outside/precious\""),
        "{}",
        positional.stderr
    );
    assert!(installed(&app).is_empty());

    // Named on the command line, the repository outside is consent, and
    // the project stays trusted with it.
    std::fs::write(app.join("skills.toml"), "").unwrap();
    ctx.ok_in(&app, &["add", &url]);
    assert_eq!(installed(&app), ["precious"]);
    std::fs::remove_dir_all(app.join(".agents/skills/precious")).unwrap();
    ctx.ok_in(&app, &["install"]);
    assert_eq!(installed(&app), ["precious"]);
}
