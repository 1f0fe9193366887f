//! Static HTTP indexes on a loopback server: the round trip, sparse
//! fetching, revalidation, retries, hard failures, `--offline`, the `dl`
//! template and unsigned packages.

use std::path::Path;

use crate::common::{
    AcmeIndex, TestContext, copy_dir, new_project, repo_index, round_trip, run, skill_md, tree,
    write_skill,
};
use crate::server::{Fault, StaticServer};

/// The sample index served over HTTP from a private copy.
fn served_sample(ctx: &TestContext) -> StaticServer {
    let dir = ctx.root().join("www");
    copy_dir(&repo_index(), &dir);
    StaticServer::start(&dir)
}

#[test]
fn round_trip_on_an_http_index() {
    let ctx = TestContext::new();
    let server = served_sample(&ctx);
    round_trip(&ctx, Some(&server.url()));
}

#[test]
fn only_the_files_resolution_needs_are_fetched_and_then_revalidated() {
    let ctx = TestContext::new();
    let server = served_sample(&ctx);
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "example/pdf-processing"]);
    let mut paths: Vec<String> = server.log().into_iter().map(|(p, _)| p).collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "/config.json",
            "/index/example/pdf-processing",
            "/packages/example/pdf-processing/pdf-processing-1.0.0.skill",
        ],
        "nothing about the other packages is fetched"
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(
        lock.contains(&format!("source = \"registry+{}\"", server.url())),
        "{lock}"
    );

    // A second run revalidates config.json and reuses the cached archive;
    // the cached entry file holds what the lock pins, so it is not asked for.
    server.clear_log();
    ctx.ok_in(&app, &["install", "--locked"]);
    assert_eq!(server.log(), [("/config.json".to_string(), 304)]);
}

#[test]
fn entry_files_the_lock_settles_are_read_from_the_cache_until_resolution_needs_more() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let src = ctx.root().join("src");
    let tool = write_skill(&src, "tool", &skill_md("tool", "A tool. Use when testing."));
    acme.publish(&ctx, &tool);
    let server = StaticServer::start(&acme.index);
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "acme/tool@1"]);

    // 1.1.0 appears. `install` keeps the pin and does not ask for the entry.
    acme.publish_version(&ctx, &tool, "1.1.0");
    server.clear_log();
    ctx.ok_in(&app, &["install"]);
    assert_eq!(server.arrivals("index/acme/tool"), 0, "{:?}", server.log());
    assert!(
        std::fs::read_to_string(app.join("skills.lock"))
            .unwrap()
            .contains("version = \"1.0.0\"")
    );

    // A requirement the pin no longer meets: the cached entries (which
    // know only 1.0.0) are not trusted to be all there is; the server is asked.
    let manifest = app.join("skills.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("\"acme/tool\" = \"^1\""), "{text}");
    std::fs::write(
        &manifest,
        text.replace("\"acme/tool\" = \"^1\"", "\"acme/tool\" = \">=1.1\""),
    )
    .unwrap();
    server.clear_log();
    ctx.ok_in(&app, &["install"]);
    assert_eq!(server.arrivals("index/acme/tool"), 1, "{:?}", server.log());
    assert!(
        std::fs::read_to_string(app.join("skills.lock"))
            .unwrap()
            .contains("version = \"1.1.0\"")
    );

    // `update` always asks.
    server.clear_log();
    ctx.ok_in(&app, &["update"]);
    assert_eq!(server.arrivals("index/acme/tool"), 1, "{:?}", server.log());

    // A dependency the lock pins, read from the cache, that a new version
    // of its dependent outgrows: resolution fails on the cached entries,
    // so it runs again on the server's, which know the new version.
    let suite_md = |req: &str| {
        format!(
            "---\nname: suite\ndescription: A suite. Use when testing.\nmetadata:\n  dependencies: acme/tool@{req}\n---\nUse tool.\n"
        )
    };
    let suite = write_skill(&src, "suite", &suite_md("^1"));
    acme.publish(&ctx, &suite);
    ctx.ok_in(&app, &["add", "acme/suite@1"]);
    acme.publish_version(&ctx, &tool, "2.0.0");
    std::fs::write(suite.join("SKILL.md"), suite_md("^2")).unwrap();
    acme.publish_version(&ctx, &suite, "2.0.0");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("\"acme/suite\" = \"^1\"", "\"acme/suite\" = \"^2\""),
    )
    .unwrap();
    ctx.ok_in(&app, &["install"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert_eq!(lock.matches("version = \"2.0.0\"").count(), 2, "{lock}");
}

#[test]
fn answers_of_500_and_bodies_cut_short_are_retried() {
    let ctx = TestContext::new();
    let server = served_sample(&ctx);
    let archive = "packages/example/report-writer/report-writer-1.0.0.skill";
    server.fault("config.json", Fault::Status(500), Some(2));
    server.fault("index/example/citation-style", Fault::Status(503), Some(2));
    server.fault("index/example/report-writer", Fault::DropMidBody, Some(2));
    server.fault(archive, Fault::DropMidBody, Some(2));
    server.fault(
        "packages/example/pdf-processing/pdf-processing-1.0.0.skill",
        Fault::Status(500),
        Some(2),
    );
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "example/report-writer"]);
    let log = server.log();
    let tries = |path: &str| log.iter().filter(|(p, _)| p == path).count();
    assert_eq!(tries("/config.json"), 3);
    assert_eq!(tries("/index/example/report-writer"), 3);
    assert_eq!(tries(&format!("/{archive}")), 3);
    let reference = TestContext::new();
    let embedded = new_project(&reference, None);
    reference.ok_in(&embedded, &["add", "example/report-writer"]);
    assert!(
        tree(&app.join(".agents/skills")) == tree(&embedded.join(".agents/skills")),
        "what the retries fetched is what the embedded index holds"
    );
}

#[test]
fn a_server_that_stalls_is_timed_out_and_retried() {
    let ctx = TestContext::new();
    let server = served_sample(&ctx);
    server.fault("index/example/pdf-processing", Fault::Stall(3_000), Some(2));
    let app = new_project(&ctx, Some(&server.url()));
    run(ctx
        .command()
        .current_dir(&app)
        .env("SKILLPKG_HTTP_TIMEOUT", "0.3")
        .args(["add", "example/pdf-processing"]))
    .assert_ok();
    assert_eq!(
        server.arrivals("index/example/pdf-processing"),
        3,
        "two stalled requests, then one answered"
    );
}

#[test]
fn a_broken_config_or_entry_file_is_named() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("www");
    copy_dir(&repo_index(), &dir);
    let server = StaticServer::start(&dir);
    let app = new_project(&ctx, Some(&server.url()));
    std::fs::write(dir.join("index/example/pdf-processing"), "{not json\n").unwrap();
    let out = ctx.fails_in(&app, &["add", "example/pdf-processing"]);
    insta::assert_snapshot!(server.redact(&out.stderr), @"error: [SERVER]/index/example/pdf-processing:1: invalid index entry: key must be a string at line 1 column 2");
    std::fs::write(dir.join("config.json"), "{\"version\": \"one\"}").unwrap();
    let out = ctx.fails_in(&app, &["add", "example/pdf-processing"]);
    insta::assert_snapshot!(server.redact(&out.stderr), @r#"
    error: [SERVER]/config.json is not a valid index config
      Caused by: invalid type: string "one", expected u32 at line 1 column 17
    "#);
    assert!(!app.join("skills.lock").exists());
}

#[test]
fn a_server_that_always_fails_is_named_and_nothing_changes() {
    let ctx = TestContext::new();
    let server = served_sample(&ctx);
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "example/citation-style"]);
    let before = (
        tree(&app),
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
    );

    let archive = "packages/example/pdf-processing/pdf-processing-1.0.0.skill";
    server.fault(archive, Fault::Status(502), None);
    let out = ctx.fails_in(&app, &["add", "example/pdf-processing"]);
    insta::assert_snapshot!(server.redact(&out.stderr), @"
    error: [SERVER]/packages/example/pdf-processing/pdf-processing-1.0.0.skill: 4 attempts failed; the last: the server answered 502 Bad Gateway
    hint: the server may be down or out of reach; try again later, or pass --offline to use what is cached
    ");
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        before.1
    );

    // SKILLPKG_HTTP_RETRIES sets how often a request is tried again.
    server.clear_log();
    let out = run(ctx
        .command()
        .current_dir(&app)
        .env("SKILLPKG_HTTP_RETRIES", "1")
        .args(["add", "example/pdf-processing"]))
    .assert_fails();
    insta::assert_snapshot!(server.redact(&out.stderr), @"
    error: [SERVER]/packages/example/pdf-processing/pdf-processing-1.0.0.skill: 2 attempts failed; the last: the server answered 502 Bad Gateway
    hint: the server may be down or out of reach; try again later, or pass --offline to use what is cached
    ");
    assert_eq!(server.arrivals(archive), 2);

    // A 403 is not retried, and is named as well.
    server.fault("index/example/pdf-processing", Fault::Status(403), None);
    server.clear_log();
    let out = ctx.fails_in(&app, &["add", "example/pdf-processing"]);
    insta::assert_snapshot!(server.redact(&out.stderr), @"
    error: [SERVER]/index/example/pdf-processing: the server answered 403 Forbidden
    hint: if the index needs a token, set SKILLPKG_INDEX_TOKEN_[HOST] in the environment or in credentials.toml in the config directory
    ");
    assert_eq!(
        server
            .log()
            .iter()
            .filter(|(p, _)| p == "/index/example/pdf-processing")
            .count(),
        1
    );
    assert!(
        tree(&app) == before.0,
        "a failed add leaves the project as it was"
    );
}

#[test]
fn offline_after_a_warm_install_needs_no_server() {
    let ctx = TestContext::new();
    let mut server = served_sample(&ctx);
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "example/report-writer"]);
    server.stop();

    let second = ctx.root().join("second");
    std::fs::create_dir_all(&second).unwrap();
    for file in ["skills.toml", "skills.lock"] {
        std::fs::copy(app.join(file), second.join(file)).unwrap();
    }
    let online = ctx.fails_in(&second, &["install"]);
    insta::assert_snapshot!(server.redact(&online.stderr), @"
    error: [SERVER]/config.json: 4 attempts failed; the last: error sending request for url ([SERVER]/config.json): client error (Connect): tcp connect error: Connection refused (os error 111)
    hint: the server may be down or out of reach; try again later, or pass --offline to use what is cached
    ");
    for flag in ["--offline", "--frozen"] {
        ctx.ok_in(&second, &["install", flag]);
    }
    assert!(tree(&app.join(".agents/skills")) == tree(&second.join(".agents/skills")));
}

#[test]
fn the_dl_template_says_where_archives_live() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("www");
    copy_dir(&repo_index(), &dir);
    // Move the archives to a flat folder and say so in config.json.
    let flat = dir.join("dl");
    std::fs::create_dir_all(&flat).unwrap();
    for entry in walkdir::WalkDir::new(dir.join("packages")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let name = entry.file_name().to_string_lossy().to_string();
            std::fs::rename(entry.path(), flat.join(format!("example--{name}"))).unwrap();
        }
    }
    let config_path = dir.join("config.json");
    let config = std::fs::read_to_string(&config_path).unwrap().replace(
        "{index}/packages/{org}/{name}/{name}-{version}.skill",
        "{index}/dl/{org}--{name}-{version}.skill",
    );
    std::fs::write(&config_path, config).unwrap();
    let server = StaticServer::start(&dir);
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "example/pdf-processing"]);
    assert!(
        server
            .log()
            .contains(&("/dl/example--pdf-processing-1.0.0.skill".to_string(), 200))
    );
}

#[test]
fn unsigned_packages_need_allow_unsigned_which_covers_only_orgs_without_keys() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let dir = write_skill(
        &ctx.root().join("src"),
        "plain",
        &skill_md("plain", "Unsigned. Use when testing."),
    );
    acme.publish(&ctx, &dir);
    // An index that serves the package without its signature.
    let entry_file = acme.index.join("index/acme/plain");
    let mut entry: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&entry_file).unwrap()).unwrap();
    entry["sig"] = serde_json::Value::String(String::new());
    std::fs::write(&entry_file, format!("{entry}\n")).unwrap();
    let server = StaticServer::start(&acme.index);
    let app = new_project(&ctx, Some(&server.url()));

    // acme has keys: no flag lets its unsigned package in.
    let refused = ctx.fails_in(&app, &["add", "acme/plain"]);
    insta::assert_snapshot!(server.redact(&refused.stderr), @"
    error: acme/plain@1.0.0 is not signed, but org 'acme' signs its packages (the index lists its keys)
    hint: the signature was dropped from [SERVER]/: do not install it; --allow-unsigned does not cover orgs with keys
    ");
    let flagged = ctx.fails_in(&app, &["add", "acme/plain", "--allow-unsigned"]);
    assert_eq!(flagged.stderr, refused.stderr);
    assert!(!app.join(".agents/skills/plain").exists());

    // An org with no keys anywhere: the flag lets it in, and says so.
    let config = acme.index.join("config.json");
    let mut parsed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    parsed["keys"] = serde_json::json!({});
    std::fs::write(&config, parsed.to_string()).unwrap();
    let refused = ctx.fails_in(&app, &["add", "acme/plain"]);
    insta::assert_snapshot!(server.redact(&refused.stderr), @"
    error: acme/plain@1.0.0 is not signed
    hint: org 'acme' has no signing keys anywhere; pass --allow-unsigned to install its unsigned packages from [SERVER]/
    ");
    let added = ctx.ok_in(&app, &["add", "acme/plain", "--allow-unsigned"]);
    insta::assert_snapshot!(server.redact(&added.stderr), @"
    warning: acme/plain@1.0.0 is not signed; installed because --allow-unsigned was given (org 'acme' has no signing keys)
       Installed acme/plain v1.0.0
    ");
    assert!(app.join(".agents/skills/plain/SKILL.md").is_file());
}

#[test]
fn search_reads_the_listing_with_one_request_and_then_revalidates_it() {
    let ctx = TestContext::new();
    let server = served_sample(&ctx);
    let app = new_project(&ctx, Some(&server.url()));
    // By a word of the name and by words of the description.
    let out = ctx.ok_in(&app, &["search", "pdf"]);
    insta::assert_snapshot!(out.stdout, @"
    example/pdf-processing@1.0.0  Extract the text of PDF files and work with it (summarise, search, quot…
    example/report-writer@1.0.0   Write a short, sourced report from documents (PDFs, notes) the user pro…
    ");
    assert_eq!(
        server.log(),
        [
            ("/config.json".to_string(), 200),
            ("/search.jsonl".to_string(), 200)
        ],
        "one request for the listing, none for entry files"
    );
    server.clear_log();
    let out = ctx.ok_in(&app, &["search", "--json", "bibliography", "footnotes"]);
    let hits: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(hits[0]["name"], "example/citation-style");
    assert_eq!(hits[0]["version"], "2.0.0");
    assert_eq!(hits.as_array().unwrap().len(), 1);
    assert_eq!(
        server.log(),
        [
            ("/config.json".to_string(), 304),
            ("/search.jsonl".to_string(), 304)
        ],
        "the cached listing is revalidated with a conditional request"
    );
}

#[test]
fn yank_updates_the_listing_that_http_search_reads() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let solo = write_skill(
        &ctx.root().join("src"),
        "solo",
        &skill_md("solo", "Sorts socks. Use when sorting."),
    );
    let duo = write_skill(
        &ctx.root().join("src"),
        "duo",
        &skill_md("duo", "Pairs socks. Use when pairing."),
    );
    acme.publish(&ctx, &solo);
    acme.publish(&ctx, &duo);
    acme.publish_version(&ctx, &duo, "1.1.0");
    let server = StaticServer::start(&acme.index);
    let app = new_project(&ctx, Some(&server.url()));
    let out = ctx.ok_in(&app, &["search", "socks"]);
    insta::assert_snapshot!(out.stdout, @r"
    acme/duo@1.1.0   Pairs socks. Use when pairing.
    acme/solo@1.0.0  Sorts socks. Use when sorting.
    ");

    // Yanking a package's only version takes it off the listing; yanking
    // the newest lists the one before.
    let index = acme.index.to_str().unwrap();
    ctx.ok(&["yank", "acme/solo@1.0.0", "--index", index]);
    ctx.ok(&["yank", "acme/duo@1.1.0", "--index", index]);
    server.clear_log();
    let out = ctx.ok_in(&app, &["search", "socks"]);
    insta::assert_snapshot!(out.stdout, @"acme/duo@1.0.0  Pairs socks. Use when pairing.");
    assert!(
        server.log().contains(&("/search.jsonl".to_string(), 200)),
        "the changed listing is fetched again: {:?}",
        server.log()
    );
    ctx.ok(&["yank", "--undo", "acme/solo@1.0.0", "--index", index]);
    let out = ctx.ok_in(&app, &["search", "sorts"]);
    insta::assert_snapshot!(out.stdout, @"acme/solo@1.0.0  Sorts socks. Use when sorting.");
}

#[test]
fn an_http_index_without_a_listing_finds_only_full_names_and_says_why() {
    let ctx = TestContext::new();
    let dir = ctx.root().join("www");
    copy_dir(&repo_index(), &dir);
    std::fs::remove_file(dir.join("search.jsonl")).unwrap();
    let server = StaticServer::start(&dir);
    let app = new_project(&ctx, Some(&server.url()));
    let out = ctx.fails_in(&app, &["search", "pdf"]);
    insta::assert_snapshot!(server.redact(&out.stderr), @r"
    error: [SERVER]/ has no search listing (search.jsonl), so it cannot be searched by words
    hint: search for one package by its full name (`skillpkg search org/name`); the index gains a listing with its next `skillpkg publish` or `yank`, or `skillpkg index init` on the folder or repository the server serves
    ");
    let out = ctx.ok_in(&app, &["search", "example/pdf-processing"]);
    assert!(
        out.stdout
            .starts_with("example/pdf-processing@1.0.0  Extract"),
        "{}",
        out.stdout
    );
    let out = ctx.ok_in(&app, &["search", "example/nothing"]);
    insta::assert_snapshot!(out.stderr, @"warning: no package matches 'example/nothing'");

    // `index init` on the folder it serves adds the listing.
    ctx.ok(&["index", "init", dir.to_str().unwrap()]);
    let out = ctx.ok_in(&app, &["search", "--json", "pdf"]);
    let hits: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(hits.as_array().unwrap().len(), 2);
}

#[test]
fn a_url_that_is_not_an_index_says_so() {
    let ctx = TestContext::new();
    let empty = ctx.root().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let server = StaticServer::start(&empty);
    let app = new_project(&ctx, Some(&server.url()));
    let out = ctx.fails_in(&app, &["add", "example/pdf-processing"]);
    insta::assert_snapshot!(server.redact(&out.stderr), @"
    error: [SERVER]/config.json was not found: [SERVER]/ is not a skillpkg index
    hint: an index has config.json at its root (see `skillpkg index init`)
    ");
}

#[test]
fn an_http_index_token_comes_from_the_environment_or_the_private_credentials_file() {
    use std::os::unix::fs::PermissionsExt;
    let ctx = TestContext::new();
    let server = served_sample(&ctx);
    server.require_authorization("Bearer t0ken");
    let app = new_project(&ctx, Some(&server.url()));
    let host = server
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .replace(['.', ':'], "_");
    let variable = format!("SKILLPKG_INDEX_TOKEN_{host}");

    let refused = ctx.fails_in(&app, &["add", "example/citation-style"]);
    insta::assert_snapshot!(server.redact(&refused.stderr), @"
    error: [SERVER]/config.json: the server answered 401 Unauthorized
    hint: if the index needs a token, set SKILLPKG_INDEX_TOKEN_[HOST] in the environment or in credentials.toml in the config directory
    ");

    let out = run(ctx
        .command()
        .current_dir(&app)
        .env(&variable, "t0ken")
        .args(["add", "example/citation-style"]));
    assert_eq!(out.status, 0, "{}", out.stderr);

    let credentials = ctx.root().join("config/credentials.toml");
    std::fs::write(&credentials, format!("{variable} = \"t0ken\"\n")).unwrap();
    std::fs::set_permissions(&credentials, std::fs::Permissions::from_mode(0o600)).unwrap();
    ctx.ok_in(&app, &["add", "example/pdf-processing"]);
    std::fs::set_permissions(&credentials, std::fs::Permissions::from_mode(0o644)).unwrap();
    let readable = ctx.fails_in(&app, &["update"]);
    insta::assert_snapshot!(ctx.redact(&readable.stderr), @"
    error: [TEMP]/config/credentials.toml can be read by other users (mode 644); not using its keys
    hint: chmod 600 [TEMP]/config/credentials.toml
    ");

    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(!lock.contains("t0ken"), "{lock}");
}

/// An index whose `config.json` sends downloads to `dl`.
fn with_download_template(index: &Path, dl: &str) {
    let path = index.join("config.json");
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    config["dl"] = serde_json::Value::String(dl.to_string());
    std::fs::write(&path, serde_json::to_string_pretty(&config).unwrap()).unwrap();
}

/// A `dl` template that a hand-made string split reads as the index's
/// own host, and the HTTP client sends to another origin: the index's
/// token and the credentials of its URL stay with the index. Two loopback
/// servers on two ports are two origins; the other one serves the
/// archives at the path the client asks for, so the install succeeds
/// either way, and only the headers it was sent tell.
#[test]
fn an_index_token_never_follows_a_download_template_to_another_origin() {
    let ctx = TestContext::new();
    let index = served_sample(&ctx);
    let other_root = ctx.root().join("other");
    let other = StaticServer::start(&other_root);
    let index_authority = index
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let other_authority = other
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    // `http://OTHER\@INDEX/packages/…`: the client asks OTHER for
    // `/@INDEX/packages/…`.
    copy_dir(
        &repo_index(),
        &other_root.join(format!("@{index_authority}")),
    );
    with_download_template(
        &ctx.root().join("www"),
        &format!(
            "http://{other_authority}\\@{index_authority}/packages/{{org}}/{{name}}/{{name}}-{{version}}.skill"
        ),
    );
    let variable = format!(
        "SKILLPKG_INDEX_TOKEN_{}",
        index_authority.replace(['.', ':'], "_")
    );
    let app = new_project(&ctx, Some(&index.url()));
    let out = run(ctx
        .command()
        .current_dir(&app)
        .env(&variable, "t0ken")
        .args(["add", "example/citation-style"]));
    assert_eq!(out.status, 0, "{}", out.stderr);
    // Credentials in the index's URL stay with it too.
    let with_password = index.url().replacen("http://", "http://reader:s3cret@", 1);
    let app = ctx.root().join("second");
    ctx.ok(&["init", app.to_str().unwrap()]);
    let manifest = app.join("skills.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!("{text}\n[registries]\ndefault = {{ index = {with_password:?} }}\n"),
    )
    .unwrap();
    ctx.ok_in(&app, &["add", "example/pdf-processing"]);
    // The downloads went to the other origin, without credentials...
    assert!(
        other.log().iter().any(|(path, _)| path.ends_with(".skill")),
        "{:?}",
        other.log()
    );
    assert_eq!(other.authorizations(), Vec::<(String, String)>::new());
    // ...while the index itself got both.
    let sent = index.authorizations();
    assert!(
        sent.iter().any(|(_, value)| value == "Bearer t0ken"),
        "{sent:?}"
    );
    assert!(
        sent.iter().any(|(_, value)| value.starts_with("Basic ")),
        "{sent:?}"
    );
}

/// Index tokens are keyed by the exact host: the user's token for
/// `skills.example.test` never goes to `skills-example.test`, which a
/// cloned `skills.toml` may name and which shared its variable before.
/// Both hosts are served by one loopback server reached as the HTTP
/// proxy, which records the `Authorization` header of each request with
/// the host it was for.
#[test]
fn an_index_token_goes_to_its_own_host_and_never_to_a_look_alike() {
    let ctx = TestContext::new();
    let proxy = served_sample(&ctx);
    let install = |index: &str, project: &str, token: (&str, &str)| {
        let app = ctx.root().join(project);
        ctx.ok(&["init", app.to_str().unwrap()]);
        let manifest = app.join("skills.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        std::fs::write(
            &manifest,
            format!("{text}\n[registries]\ndefault = {{ index = {index:?} }}\n"),
        )
        .unwrap();
        let out = run(ctx
            .command()
            .current_dir(&app)
            .env("http_proxy", proxy.url())
            .env(token.0, token.1)
            .args(["add", "example/citation-style"]));
        assert_eq!(out.status, 0, "{}", out.stderr);
    };
    let users = ("SKILLPKG_INDEX_TOKEN_SKILLS_EXAMPLE_TEST", "users-token");
    install("http://skills-example.test/", "cloned", users);
    assert_eq!(proxy.authorizations(), Vec::<(String, String)>::new());
    install("http://skills.example.test/", "own", users);
    let sent = proxy.authorizations();
    assert!(!sent.is_empty());
    assert!(
        sent.iter()
            .all(|header| *header == ("skills.example.test".into(), "Bearer users-token".into())),
        "{sent:?}"
    );
    // The look-alike has a variable of its own.
    let theirs = ("SKILLPKG_INDEX_TOKEN_SKILLS__EXAMPLE_TEST", "its-token");
    install("http://skills-example.test/", "theirs", theirs);
    assert!(proxy.authorizations().len() > sent.len());
    assert!(
        proxy.authorizations()[sent.len()..]
            .iter()
            .all(|header| *header == ("skills-example.test".into(), "Bearer its-token".into())),
        "{:?}",
        proxy.authorizations()
    );
}
