//! An OCI registry namespace as an index (`oci://HOST/NAMESPACE`), in a
//! real registry (the CNCF distribution registry, `docker-registry`):
//! `index init`, `publish` (signed, immutable versions, signatures under
//! the referrers' fallback tag), `add` by range, `install --locked` in a
//! fresh copy, `update`, `yank` (a signed state artifact), `search`, and
//! what skillpkg pushes read by an independent client (`skopeo`).

use std::path::Path;

use crate::common::registry::{Artifact, Registry, digest_of, simple_skill};
use crate::common::{fresh_copy, has_program, run, tree};
use crate::publish::Publisher;

/// `oci://HOST/corp`, set up for org `acme` with the publisher's key.
fn init_namespace(publisher: &Publisher, registry: &Registry) -> String {
    let index = format!("oci://{}/corp", registry.host());
    let mut cmd = publisher.ctx.command();
    cmd.args(["index", "init", &index, "--org", "acme", "--key"])
        .arg(&publisher.keys.public_file);
    let out = run(&mut cmd).assert_ok();
    assert!(
        out.stderr
            .contains(&format!("Created OCI index at {index}")),
        "{}",
        out.stderr
    );
    index
}

/// A registry, a publisher, and the namespace `corp` set up for `acme`
/// in it; `None` when the registry is not installed.
fn started() -> Option<(Registry, Publisher, String)> {
    let registry = Registry::start()?;
    let publisher = Publisher::new();
    let index = init_namespace(&publisher, &registry);
    Some((registry, publisher, index))
}

/// A project whose registry `corp` is `index`.
fn project(publisher: &Publisher, index: &str, name: &str) -> std::path::PathBuf {
    let ctx = &publisher.ctx;
    let dir = ctx.root().join(name);
    ctx.ok(&["init", dir.to_str().unwrap()]);
    ctx.ok_in(&dir, &["registry", "add", "corp", index]);
    dir
}

fn lock_of(app: &Path) -> String {
    std::fs::read_to_string(app.join("skills.lock")).unwrap()
}

#[test]
fn a_namespace_is_an_index_published_to_installed_from_updated_and_yanked() {
    let Some((registry, publisher, index)) = started() else {
        return;
    };
    let ctx = &publisher.ctx;
    let hello = publisher.skill("hello", "");
    publisher.publish(&hello, &index, &[]).assert_ok();
    let out = publisher
        .publish(&hello, &index, &["--version", "1.1.0"])
        .assert_ok();
    assert!(
        out.stderr.contains("Published acme/hello@1.1.0"),
        "{}",
        out.stderr
    );
    // Versions are immutable.
    let out = publisher
        .publish(&hello, &index, &["--version", "1.1.0"])
        .assert_fails();
    insta::assert_snapshot!(ctx.redact(&out.stderr).replace(registry.host(), "HOST"), @r"
    error: acme/hello@1.1.0 is already published to oci://HOST/corp
    hint: versions are immutable: bump metadata.version (or pass --version) and publish again
    ");

    // A project installs by range, locks the layer's digest, signer and
    // tree, and a fresh copy reproduces the tree from a cold cache.
    let app = project(&publisher, &index, "app");
    let out = ctx.ok_in(&app, &["add", "acme/hello@^1", "--registry", "corp"]);
    insta::assert_snapshot!(out.stderr, @"   Installed acme/hello v1.1.0");
    let lock = lock_of(&app);
    assert!(
        lock.contains(&format!("source = \"registry+{index}\"")),
        "{lock}"
    );
    assert!(lock.contains("signer = \"RW"), "{lock}");
    assert!(lock.contains("tree = \"h1:"), "{lock}");
    let installed = app.join(".agents/skills/hello");
    assert_eq!(tree(&installed), tree(&hello));
    let copy = fresh_copy(ctx, &app);
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert_eq!(tree(&copy.join(".agents/skills/hello")), tree(&installed));
    assert_eq!(
        ctx.ok_in(&app, &["verify"]).stdout.trim(),
        "acme/hello@1.1.0: ok"
    );

    // A third version: `update` takes it.
    publisher
        .publish(&hello, &index, &["--version", "1.2.0"])
        .assert_ok();
    let out = ctx.ok_in(&app, &["update"]);
    assert!(out.stderr.contains("v1.1.0 → v1.2.0"), "{}", out.stderr);

    // Yanked, it is skipped by a new resolution and reported where locked.
    let mut cmd = ctx.command();
    cmd.args(["yank", "acme/hello@1.2.0", "--index", &index, "--key"])
        .arg(&publisher.keys.secret_file);
    let out = run(&mut cmd).assert_ok();
    insta::assert_snapshot!(out.stderr, @"      Yanked acme/hello@1.2.0");
    let other = project(&publisher, &index, "other");
    let out = ctx.ok_in(&other, &["add", "acme/hello", "--registry", "corp"]);
    insta::assert_snapshot!(out.stderr, @"   Installed acme/hello v1.1.0");
    let out = ctx.run_in(&app, &["outdated"]);
    assert!(out.stdout.contains("1.2.0 (yanked)"), "{}", out.stdout);

    // Search reads the listing that publish and yank keep.
    let out = ctx.ok_in(&app, &["search", "hello", "--registry", "corp"]);
    assert!(out.stdout.contains("acme/hello@1.1.0"), "{}", out.stdout);
}

#[test]
fn what_skillpkg_pushes_reads_with_skopeo_and_unpacks_to_the_same_tree() {
    if !has_program("skopeo", "skopeo") {
        return;
    }
    let Some((registry, publisher, index)) = started() else {
        return;
    };
    let hello = publisher.skill("hello", "");
    std::fs::create_dir_all(hello.join("scripts")).unwrap();
    std::fs::write(hello.join("scripts/run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(
        hello.join("scripts/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    publisher.publish(&hello, &index, &[]).assert_ok();
    let reference = format!("docker://{}/corp/acme/hello:1.0.0", registry.host());
    let out = run(std::process::Command::new("skopeo").args([
        "inspect",
        "--raw",
        "--tls-verify=false",
        &reference,
    ]));
    assert_eq!(out.status, 0, "skopeo: {}", out.stderr);
    let manifest: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        manifest["artifactType"],
        "application/vnd.agentskills.skill.v1"
    );
    assert_eq!(
        manifest["config"]["mediaType"],
        "application/vnd.agentskills.skill.config.v1+json"
    );
    assert_eq!(
        manifest["annotations"]["io.agentskills.skill.name"],
        "hello"
    );
    let layers = manifest["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 1);
    assert_eq!(
        layers[0]["mediaType"],
        "application/vnd.agentskills.skill.content.v1.tar+gzip"
    );

    // skopeo copies the artifact into an OCI layout; its layer, unpacked
    // by tar, is the skill's folder.
    let layout = publisher.ctx.root().join("layout");
    let out = run(std::process::Command::new("skopeo").args([
        "copy",
        "--src-tls-verify=false",
        &reference,
        &format!("oci:{}:1.0.0", layout.display()),
    ]));
    assert_eq!(out.status, 0, "skopeo: {}", out.stderr);
    let digest = layers[0]["digest"].as_str().unwrap();
    let blob = layout.join("blobs/sha256").join(&digest["sha256:".len()..]);
    let unpacked = publisher.ctx.root().join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    let out = run(std::process::Command::new("tar")
        .arg("xzf")
        .arg(&blob)
        .arg("-C")
        .arg(&unpacked));
    assert_eq!(out.status, 0, "tar: {}", out.stderr);
    assert_eq!(tree(&unpacked.join("hello")), tree(&hello));
    let mode = std::fs::metadata(unpacked.join("hello/scripts/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the executable bit travels");
}

#[test]
fn an_artifact_another_client_pushed_into_the_namespace_installs() {
    let Some((registry, publisher, index)) = started() else {
        return;
    };
    // Org `tools` has no keys in the index: its packages are unsigned.
    registry.push(
        "corp/tools/lint",
        "2.0.0",
        &simple_skill("lint", "2.0.0", "Pushed by another client."),
    );
    let app = project(&publisher, &index, "app");
    let ctx = &publisher.ctx;
    let out = ctx.fails_in(&app, &["add", "tools/lint", "--registry", "corp"]);
    assert!(out.stderr.contains("unsigned"), "{}", out.stderr);
    let out = ctx.ok_in(
        &app,
        &[
            "add",
            "tools/lint",
            "--registry",
            "corp",
            "--allow-unsigned",
        ],
    );
    insta::assert_snapshot!(out.stderr, @r"
    warning: tools/lint@2.0.0 is not signed; installed because --allow-unsigned was given (org 'tools' has no signing keys)
       Installed tools/lint v2.0.0
    ");
    assert!(
        std::fs::read_to_string(app.join(".agents/skills/lint/SKILL.md"))
            .unwrap()
            .contains("Pushed by another client.")
    );
}

/// The state artifact of `acme/hello`, holding `document` and
/// `signature` (blank: none), as a registry could rewrite it.
fn state_artifact(document: &[u8], signature: &str) -> Artifact {
    let empty = b"{}".to_vec();
    let descriptor = |media_type: &str, bytes: &[u8]| serde_json::json!({"mediaType": media_type, "digest": digest_of(bytes), "size": bytes.len()});
    let mut layers = vec![descriptor(
        "application/vnd.skillpkg.state.v1+json",
        document,
    )];
    let mut blobs = vec![
        (digest_of(&empty), empty.clone()),
        (digest_of(document), document.to_vec()),
    ];
    if !signature.is_empty() {
        layers.push(descriptor(
            "application/vnd.skillpkg.minisign.v1",
            signature.as_bytes(),
        ));
        blobs.push((
            digest_of(signature.as_bytes()),
            signature.as_bytes().to_vec(),
        ));
    }
    let manifest = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "artifactType": "application/vnd.skillpkg.state.v1",
        "config": descriptor("application/vnd.oci.empty.v1+json", &empty),
        "layers": layers,
    }))
    .unwrap();
    Artifact {
        blobs,
        manifest,
        media_type: "application/vnd.oci.image.manifest.v1+json",
    }
}

#[test]
fn a_yank_state_the_org_did_not_sign_is_refused() {
    let Some((registry, publisher, index)) = started() else {
        return;
    };
    let ctx = &publisher.ctx;
    let hello = publisher.skill("hello", "");
    publisher.publish(&hello, &index, &[]).assert_ok();
    publisher
        .publish(&hello, &index, &["--version", "1.1.0"])
        .assert_ok();
    let app = project(&publisher, &index, "app");

    // The registry's operator yanks 1.1.0 without the org's key, to hold
    // users on the older version: refused, nothing installed.
    let document = br#"{"package":"acme/hello","yanked":["1.1.0"]}"#;
    registry.push(
        "corp/acme/hello",
        "skillpkg-state",
        &state_artifact(document, ""),
    );
    let out = ctx.fails_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    assert!(
        out.stderr
            .contains("the yank state of acme/hello is not signed by a key of org 'acme'"),
        "{}",
        out.stderr
    );
    assert!(!app.join(".agents/skills/hello").exists());

    let mut cmd = ctx.command();
    cmd.args(["yank", "acme/hello@1.0.0", "--index", &index, "--key"])
        .arg(&publisher.keys.secret_file);
    // The forged state is in the way of the org's own yank too: it is
    // never taken as the state to build on.
    let out = run(&mut cmd).assert_fails();
    assert!(
        out.stderr.contains("not signed by a key of org"),
        "{}",
        out.stderr
    );
}

/// On an OCI index a version's first channel is in its signature (a
/// referrer) and each move in the package's signed state: `add` does not
/// see a draft until it is promoted, and a yank beside it is kept.
#[test]
fn channels_move_in_the_signed_state_of_a_namespace() {
    let Some((_registry, publisher, index)) = started() else {
        return;
    };
    let ctx = &publisher.ctx;
    let hello = publisher.skill("hello", "");
    publisher.publish(&hello, &index, &[]).assert_ok();
    publisher
        .publish(
            &hello,
            &index,
            &["--version", "1.1.0", "--channel", "draft"],
        )
        .assert_ok();
    let app = project(&publisher, &index, "app");
    let out = ctx.ok_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    insta::assert_snapshot!(out.stderr, @"   Installed acme/hello v1.0.0");

    let mut cmd = ctx.command();
    cmd.args(["yank", "acme/hello@1.0.0", "--index", &index, "--key"])
        .arg(&publisher.keys.secret_file);
    run(&mut cmd).assert_ok();
    let mut cmd = ctx.command();
    cmd.args([
        "promote",
        "acme/hello@1.1.0",
        "--to",
        "published",
        "--index",
        &index,
        "--key",
    ])
    .arg(&publisher.keys.secret_file);
    let out = run(&mut cmd).assert_ok();
    insta::assert_snapshot!(out.stderr, @"    Promoted acme/hello@1.1.0 from draft to published");
    let out = ctx.ok_in(&app, &["update"]);
    assert!(out.stderr.contains("v1.0.0 → v1.1.0"), "{}", out.stderr);
    let other = project(&publisher, &index, "other");
    // The yank the state held before the promotion is still there.
    let out = ctx.fails_in(&other, &["add", "acme/hello@=1.0.0", "--registry", "corp"]);
    assert!(out.stderr.contains("(1.0.0) is yanked"), "{}", out.stderr);
}

#[test]
fn publishing_to_an_empty_namespace_sets_it_up_with_the_publishers_key() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let publisher = Publisher::new();
    let ctx = &publisher.ctx;
    let index = format!("oci://{}/fresh", registry.host());
    let hello = publisher.skill("hello", "");
    publisher.publish(&hello, &index, &[]).assert_ok();
    let app = project(&publisher, &index, "app");
    ctx.ok_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    let lock = lock_of(&app);
    let public = std::fs::read_to_string(&publisher.keys.public_file).unwrap();
    let key_line = public.lines().nth(1).unwrap();
    assert!(lock.contains(key_line), "the key is pinned: {lock}");

    // Another key is not the org's: refused, with how to add it.
    let stranger = ctx.keygen("stranger");
    let mut cmd = ctx.command();
    cmd.arg("publish")
        .arg(&hello)
        .args([
            "--index",
            &index,
            "--org",
            "acme",
            "--version",
            "2.0.0",
            "--key",
        ])
        .arg(&stranger.secret_file);
    let out = run(&mut cmd).assert_fails();
    assert!(
        out.stderr
            .contains("is not one of org 'acme''s keys in the config of oci://"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_collection_published_to_a_namespace_installs_all_its_skills() {
    let Some((registry, publisher, index)) = started() else {
        return;
    };
    let ctx = &publisher.ctx;
    let pdf = publisher.skill("pdf", "");
    let lint = publisher.skill("lint", "");
    // `pdf` is published on its own first: the collection keeps that version.
    publisher.publish(&pdf, &index, &[]).assert_ok();
    let mut cmd = ctx.command();
    cmd.arg("publish")
        .arg(&pdf)
        .arg(&lint)
        .args([
            "--index",
            &index,
            "--org",
            "acme",
            "--collection",
            "toolkit",
            "--version",
            "1.0.0",
            "--key",
        ])
        .arg(&publisher.keys.secret_file);
    let out = run(&mut cmd).assert_ok();
    assert!(
        out.stderr
            .contains("Published acme/toolkit@1.0.0, a collection of 2 skills"),
        "{}",
        out.stderr
    );
    // Collections are immutable too.
    let out = run(&mut cmd).assert_fails();
    assert!(
        out.stderr
            .contains("acme/toolkit@1.0.0 is already published"),
        "{}",
        out.stderr
    );

    // Each skill is a package of the index; the collection installs both.
    let app = project(&publisher, &index, "app");
    ctx.ok_in(&app, &["add", "acme/lint", "--registry", "corp"]);
    let reference = format!("oci://{}/corp/acme/toolkit:1.0.0", registry.host());
    let out = ctx.ok_in(&app, &["add", &reference, "--list"]);
    assert_eq!(out.stdout, "pdf\nlint\n");
    let out = ctx.fails_in(&app, &["add", &reference, "--skill", "pdff"]);
    assert!(
        out.stderr.contains("matches \"pdff\"") && out.stderr.contains("did you mean --skill pdf?"),
        "{}",
        out.stderr
    );
    let out = ctx.ok_in(&app, &["add", &reference, "--skill", "pdf"]);
    insta::assert_snapshot!(out.stderr, @"   Installed pdf v1.0.0");
    let other = project(&publisher, &index, "other");
    let out = ctx.ok_in(&other, &["add", &reference]);
    assert!(
        out.stderr.contains("Installed lint v1.0.0"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("Installed pdf v1.0.0"),
        "{}",
        out.stderr
    );
    assert_eq!(tree(&other.join(".agents/skills/pdf")), tree(&pdf));
    assert_eq!(tree(&other.join(".agents/skills/lint")), tree(&lint));
}

/// The body of `GET path` from the registry at `host`.
fn get(host: &str, path: &str) -> String {
    use std::io::{Read as _, Write as _};
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default()
}

#[test]
fn where_the_registry_has_the_referrers_api_a_signature_is_a_referrer_and_no_tag() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let proxy = crate::common::referrers::ReferrersProxy::start(registry.host());
    let publisher = Publisher::new();
    let ctx = &publisher.ctx;
    let index = format!("oci://{}/corp", proxy.host());
    let hello = publisher.skill("hello", "");
    publisher.publish(&hello, &index, &[]).assert_ok();
    let tags = get(registry.host(), "/v2/corp/acme/hello/tags/list");
    assert!(tags.contains("1.0.0"), "{tags}");
    assert!(
        !tags.contains(".minisig"),
        "no fallback tag where the registry indexes referrers: {tags}"
    );

    // The signature is found through the Referrers API, checked, and its
    // key pinned.
    let app = project(&publisher, &index, "app");
    ctx.ok_in(&app, &["add", "acme/hello", "--registry", "corp"]);
    let lock = lock_of(&app);
    let public = std::fs::read_to_string(&publisher.keys.public_file).unwrap();
    assert!(
        lock.contains(&format!("signer = \"{}\"", public.lines().nth(1).unwrap())),
        "{lock}"
    );
}

#[test]
fn a_layer_published_with_a_sigstore_bundle_installs_under_the_identity_policy() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let ctx = crate::common::TestContext::new();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sigstore");
    let index = format!("oci://{}/signed", registry.host());
    // CI makes the layer, signs it keylessly, and publishes that file.
    let layer = ctx.root().join("signed-skill-1.0.0.tar.gz");
    ctx.ok(&[
        "pack",
        fixtures.join("signed-skill").to_str().unwrap(),
        "--layer",
        "--output",
        layer.to_str().unwrap(),
    ]);
    let out = ctx.run(&[
        "publish",
        layer.to_str().unwrap(),
        "--index",
        &index,
        "--org",
        "acme",
        "--sigstore-bundle",
        fixtures
            .join("signed-skill.layer.sigstore.json")
            .to_str()
            .unwrap(),
    ]);
    assert!(
        out.status == 0,
        "the fixture bundle no longer signs what `pack --layer` makes of signed-skill/ (regenerate it with tests/fixtures/sigstore/make.py): {}",
        out.stderr
    );
    // A bundle over the .skill signs other bytes than the layer: refused.
    let out = ctx.fails(&[
        "publish",
        fixtures.join("signed-skill").to_str().unwrap(),
        "--index",
        &index,
        "--org",
        "acme",
        "--version",
        "1.0.1",
        "--sigstore-bundle",
        fixtures
            .join("signed-skill.sigstore.json")
            .to_str()
            .unwrap(),
    ]);
    assert!(
        out.stderr.contains("`skillpkg pack --layer`"),
        "{}",
        out.stderr
    );

    let app = ctx.root().join("app");
    ctx.ok(&["init", app.to_str().unwrap()]);
    ctx.ok_in(&app, &["registry", "add", "corp", &index]);
    let out = ctx.fails_in(&app, &["add", "acme/signed-skill", "--registry", "corp"]);
    assert!(
        out.stderr
            .contains("no signer policy says who must sign it"),
        "{}",
        out.stderr
    );
    ctx.ok(&[
        "trust",
        "acme",
        "--sigstore-identity",
        "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main",
        "--sigstore-issuer",
        "https://token.actions.githubusercontent.com",
        "--trusted-root",
        fixtures.join("trusted_root.json").to_str().unwrap(),
    ]);
    ctx.ok_in(&app, &["add", "acme/signed-skill", "--registry", "corp"]);
    let lock = lock_of(&app);
    assert!(
        lock.contains("identity = \"https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main\""),
        "{lock}"
    );
    assert_eq!(
        tree(&app.join(".agents/skills/signed-skill")),
        tree(&fixtures.join("signed-skill"))
    );
}

#[test]
fn a_namespace_without_a_listing_is_searched_through_the_registrys_catalog() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let ctx = crate::common::TestContext::new();
    // Pushed by another client: no config, no listing artifact.
    registry.push(
        "tools/ext/lint",
        "2.0.0",
        &simple_skill("lint", "2.0.0", "Lints."),
    );
    registry.push(
        "tools/ext/format",
        "1.0.0",
        &simple_skill("format", "1.0.0", "Formats."),
    );
    // A repository outside the namespace is not listed.
    registry.push(
        "elsewhere/ext/lint",
        "9.0.0",
        &simple_skill("lint", "9.0.0", "Elsewhere."),
    );
    let app = ctx.root().join("app");
    ctx.ok(&["init", app.to_str().unwrap()]);
    let index = format!("oci://{}/tools", registry.host());
    ctx.ok_in(&app, &["registry", "add", "corp", &index]);
    let out = ctx.ok_in(&app, &["search", "lint", "--registry", "corp"]);
    assert!(out.stdout.contains("ext/lint@2.0.0"), "{}", out.stdout);
    assert!(!out.stdout.contains("9.0.0"), "{}", out.stdout);
    let out = ctx.ok_in(&app, &["search", "format", "--registry", "corp"]);
    assert!(out.stdout.contains("ext/format@1.0.0"), "{}", out.stdout);
}

#[test]
fn a_version_claiming_a_layer_larger_than_installs_allow_is_refused_before_download() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let ctx = crate::common::TestContext::new();
    // Another client pushes a manifest whose layer descriptor claims far
    // more bytes than the blob holds.
    let mut artifact = simple_skill("huge", "1.0.0", "Huge.");
    let mut manifest: serde_json::Value = serde_json::from_slice(&artifact.manifest).unwrap();
    manifest["layers"][0]["size"] = serde_json::json!(64_u64 << 30);
    artifact.manifest = serde_json::to_vec(&manifest).unwrap();
    registry.push("ns/ext/huge", "1.0.0", &artifact);
    let app = ctx.root().join("app");
    ctx.ok(&["init", app.to_str().unwrap()]);
    let index = format!("oci://{}/ns", registry.host());
    ctx.ok_in(&app, &["registry", "add", "corp", &index]);
    let out = ctx.fails_in(
        &app,
        &["add", "ext/huge", "--registry", "corp", "--allow-unsigned"],
    );
    assert!(
        out.stderr
            .contains("its layer is 68719476736 bytes, more than the"),
        "{}",
        out.stderr
    );
    assert!(!app.join(".agents/skills/huge").exists());
}

#[test]
fn a_namespace_carries_its_orgs_signed_policy_which_its_projects_follow() {
    let Some((registry, publisher, index)) = started() else {
        return;
    };
    let ctx = &publisher.ctx;
    let hello = publisher.skill("hello", "");
    publisher.publish(&hello, &index, &[]).assert_ok();
    publisher
        .publish(
            &hello,
            &index,
            &["--version", "1.1.0", "--channel", "draft"],
        )
        .assert_ok();
    let text = format!(
        "org = \"acme\"\nserial = 1\nindex = \"{index}\"\nlowest-channel = \"published\"\n"
    );
    let out = crate::org_policy::sign_policy(
        &publisher,
        Path::new(&index),
        &text,
        &publisher.keys.secret_file,
    )
    .assert_ok();
    assert!(
        out.stderr.contains("Signed the policy of org 'acme'"),
        "{}",
        out.stderr
    );

    let app = ctx.root().join("app");
    ctx.ok(&["init", app.to_str().unwrap()]);
    ctx.ok_in(&app, &["registry", "add", "--default", &index]);
    ctx.ok_in(&app, &["add", "acme/hello"]);
    let lock = lock_of(&app);
    assert!(lock.contains(&format!("[policies.\"{index}\"]")), "{lock}");
    let out = ctx.fails_in(&app, &["add", "acme/hello", "--channel", "draft"]);
    insta::assert_snapshot!(ctx.redact(&out.stderr).replace(registry.host(), "HOST"), @"
    error: the draft channel for acme/hello is refused by the policy of org 'acme' (HOST/corp/skillpkg-index:policy): members may use the published channel and above
    hint: the org's policy applies to projects whose default registry is its index; ask the org, or use another default registry
    ");

    // Offline, the copy read last applies.
    let out = ctx.fails_in(
        &app,
        &["add", "acme/hello", "--channel", "draft", "--offline"],
    );
    assert!(
        out.stderr
            .contains("is refused by the policy of org 'acme'"),
        "{}",
        out.stderr
    );
}
