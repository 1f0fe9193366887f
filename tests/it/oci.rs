//! OCI registries as a source: a skill added by tag or digest from a real
//! registry (the CNCF distribution registry, `docker-registry`), locked by
//! manifest digest and tree, reproduced by `install --locked`, moved only
//! by `update`; layers that attack refused with nothing left behind; and
//! logins read where container tools keep them.

use crate::common::registry::{
    Artifact, Entry, Registry, digest_of, entries, layer, simple_skill, skill_artifact,
};
use crate::common::{TestContext, fresh_copy, new_project, tree};

/// The lock entry of `name` in `app`, as text.
fn lock_entry(app: &std::path::Path, name: &str) -> String {
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    lock.split("[[skill]]")
        .find(|entry| entry.contains(&format!("name = \"{name}\"")))
        .unwrap_or_else(|| panic!("{name} is not in the lock:\n{lock}"))
        .to_string()
}

#[test]
fn a_skill_added_by_tag_is_locked_by_digest_and_moves_only_on_update() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let host = registry.host();
    let first = registry.push("skills/pdf", "1.0.0", &simple_skill("pdf", "1.0.0", "One."));
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let out = ctx.ok_in(&app, &["add", &format!("oci://{host}/skills/pdf:1.0.0")]);
    insta::assert_snapshot!(out.stderr, @"   Installed pdf v1.0.0");
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "pdf = {{ oci = \"{host}/skills/pdf\", tag = \"1.0.0\" }}"
        )),
        "{manifest}"
    );
    let installed = app.join(".agents/skills/pdf");
    let entry = lock_entry(&app, "pdf");
    assert!(
        entry.contains(&format!(
            "source = \"oci+{host}/skills/pdf?tag=1.0.0#{first}\""
        )),
        "{entry}"
    );
    assert!(entry.contains("tree = \"h1:"), "{entry}");
    let verified = ctx.ok_in(&app, &["verify"]).stdout;
    assert_eq!(verified.trim(), "pdf@1.0.0: ok");
    assert!(
        std::fs::read_to_string(installed.join("SKILL.md"))
            .unwrap()
            .contains("One.")
    );
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(installed.join("scripts/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the executable bit is kept");

    // The tag moves. `install` keeps the locked digest, in this project
    // and in a fresh clone with --locked (which pulls it by digest).
    let second = registry.push("skills/pdf", "1.0.0", &simple_skill("pdf", "1.0.1", "Two."));
    assert_ne!(first, second);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    ctx.ok_in(&app, &["install"]);
    assert_eq!(
        std::fs::read_to_string(app.join("skills.lock")).unwrap(),
        lock
    );
    let copy = fresh_copy(&ctx, &app);
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    ctx.ok_in(&copy, &["install", "--locked"]);
    assert!(tree(&installed) == tree(&copy.join(".agents/skills/pdf")));
    assert!(
        std::fs::read_to_string(copy.join(".agents/skills/pdf/SKILL.md"))
            .unwrap()
            .contains("One.")
    );

    // `outdated` says the tag moved, naming both digests.
    let out = ctx.run_in(&app, &["outdated"]);
    let short = |digest: &str| digest[..19].to_string();
    assert!(
        out.stdout.contains("pdf")
            && out.stdout.contains(&short(&first))
            && out.stdout.contains(&short(&second)),
        "{}\n{}",
        out.stdout,
        out.stderr
    );
    let out = ctx.run_in(&app, &["outdated", "--json"]);
    assert!(
        out.stdout.contains(&format!(
            "\"repository\": \"oci://{host}/skills/pdf:1.0.0\""
        )),
        "{}",
        out.stdout
    );

    // `update` asks the registry what the tag names now.
    let out = ctx.ok_in(&app, &["update"]);
    insta::assert_snapshot!(out.stderr, @"     Updated pdf v1.0.0 → v1.0.1");
    assert!(lock_entry(&app, "pdf").contains(&format!("?tag=1.0.0#{second}\"")));
    assert!(
        std::fs::read_to_string(installed.join("SKILL.md"))
            .unwrap()
            .contains("Two.")
    );

    // Offline, a locked digest comes from the cache; a tag cannot be asked.
    ctx.ok_in(&app, &["install", "--frozen"]);
    std::fs::remove_dir_all(&installed).unwrap();
    ctx.ok_in(&app, &["install", "--frozen"]);
    assert!(installed.join("SKILL.md").is_file());
    let out = ctx.fails_in(&app, &["update", "--offline"]);
    assert!(
        out.stderr
            .contains("which artifact the tag 1.0.0 names must be asked of"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_skill_added_by_digest_stays_there_until_added_again_from_its_repository() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let host = registry.host();
    let digest = registry.push("skills/pdf", "1.0.0", &simple_skill("pdf", "1.0.0", "One."));
    registry.push("skills/pdf", "1.0.0", &simple_skill("pdf", "2.0.0", "Two."));
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    ctx.ok_in(&app, &["add", &format!("oci://{host}/skills/pdf@{digest}")]);
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "pdf = {{ oci = \"{host}/skills/pdf\", digest = \"{digest}\" }}"
        )),
        "{manifest}"
    );
    assert!(
        lock_entry(&app, "pdf").contains(&format!("source = \"oci+{host}/skills/pdf#{digest}\""))
    );
    let out = ctx.ok_in(&app, &["update"]);
    assert!(!out.stderr.contains("Updated"), "{}", out.stderr);
    let skill_md = app.join(".agents/skills/pdf/SKILL.md");
    assert!(std::fs::read_to_string(&skill_md).unwrap().contains("One."));

    // The same repository by tag is the same source: the pin moves.
    let out = ctx.ok_in(&app, &["add", &format!("oci://{host}/skills/pdf:1.0.0")]);
    insta::assert_snapshot!(out.stderr, @"     Updated pdf v1.0.0 → v2.0.0");
    assert!(std::fs::read_to_string(&skill_md).unwrap().contains("Two."));
    // A repository stands for the skills taken from it.
    ctx.ok_in(&app, &["remove", &format!("oci://{host}/skills/pdf")]);
    assert!(!skill_md.exists());
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(!manifest.contains("pdf"), "{manifest}");
}

#[test]
fn a_missing_tag_is_named_with_the_tags_there_are() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let host = registry.host();
    registry.push("skills/pdf", "1.0.0", &simple_skill("pdf", "1.0.0", "One."));
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let out = ctx.fails_in(&app, &["add", &format!("oci://{host}/skills/pdf:2.0.0")]);
    let stderr = out.stderr.replace(host, "[HOST]");
    insta::assert_snapshot!(stderr, @"
    error: could not get oci://[HOST]/skills/pdf:2.0.0
      Caused by: [HOST]/skills/pdf has no tag 2.0.0
    hint: its tags: 1.0.0
    ");
    assert!(!app.join(".agents/skills/pdf").exists());
}

/// Pushes an Agent Skills artifact of `pdf` whose layer holds `extra`
/// besides its SKILL.md, adds it, and returns the error; checks that
/// nothing was installed, recorded or left in staging.
fn refused(extra: Entry) -> String {
    let registry = Registry::start().expect("checked by the caller");
    let skill_md = b"---\nname: pdf\ndescription: PDF. Use when testing.\n---\nBody.\n";
    let hostile = layer(&[Entry::File("pdf/SKILL.md", skill_md), extra]);
    registry.push(
        "skills/pdf",
        "1.0.0",
        &skill_artifact("pdf", "1.0.0", hostile),
    );
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let before = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let out = ctx.fails_in(
        &app,
        &[
            "add",
            &format!("oci://{}/skills/pdf:1.0.0", registry.host()),
        ],
    );
    assert_eq!(
        std::fs::read_to_string(app.join("skills.toml")).unwrap(),
        before
    );
    assert!(!app.join(".agents/skills/pdf").exists());
    assert!(
        !app.join("skills.lock").exists()
            || !std::fs::read_to_string(app.join("skills.lock"))
                .unwrap()
                .contains("pdf")
    );
    let staging = app.join(".skillpkg/staging");
    let left: Vec<_> = std::fs::read_dir(&staging)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left in staging: {left:?}");
    assert!(!ctx.root().join("escaped").exists());
    out.stderr.replace(registry.host(), "[HOST]")
}

#[test]
fn a_layer_reaching_outside_its_folder_is_refused() {
    if !crate::common::has_program("docker-registry", "docker-registry") {
        return;
    }
    let stderr = refused(Entry::File("pdf/../../../escaped", b"x"));
    assert!(stderr.contains("contains a '..' component"), "{stderr}");
    assert!(
        stderr.contains("refusing archive [HOST]/skills/pdf@sha256:"),
        "{stderr}"
    );
}

#[test]
fn a_layer_with_a_symlink_is_refused() {
    if !crate::common::has_program("docker-registry", "docker-registry") {
        return;
    }
    let stderr = refused(Entry::Symlink("pdf/notes.md", "/etc/passwd"));
    assert!(
        stderr.contains("entry 'pdf/notes.md' is a symbolic link"),
        "{stderr}"
    );
}

/// A docker `config.json` in the test's home.
fn docker_config(ctx: &TestContext, json: &str) {
    let dir = ctx.root().join("home/.docker");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.json"), json).unwrap();
}

#[test]
fn logins_come_from_config_json_and_credential_helpers_and_wrong_ones_are_not_shown() {
    let Some(registry) = Registry::with_login("alice", "s3cret-pw") else {
        return;
    };
    let host = registry.host().to_string();
    registry.push("skills/pdf", "1.0.0", &simple_skill("pdf", "1.0.0", "One."));
    let reference = format!("oci://{host}/skills/pdf:1.0.0");
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);

    // No login: the registry asks, and the error says how to give one.
    let out = ctx.fails_in(&app, &["add", &reference]);
    insta::assert_snapshot!(out.stderr.replace(&host, "[HOST]").replace(&host.replace(['.', ':'], "_"), "[VAR]"), @"
    error: could not get oci://[HOST]/skills/pdf:1.0.0
      Caused by: [HOST]/skills/pdf asks for credentials (401 Unauthorized), and none are set for [HOST]
    hint: log in with `docker login [HOST]` (skillpkg reads ~/.docker/config.json and its credential helpers), or set SKILLPKG_REGISTRY_TOKEN_[VAR] to a token in the environment or in credentials.toml
    ");

    // A wrong password: refused, and never shown.
    use base64::Engine as _;
    let auth = |login: &str| base64::engine::general_purpose::STANDARD.encode(login);
    docker_config(
        &ctx,
        &format!(
            r#"{{"auths": {{"{host}": {{"auth": "{}"}}}}}}"#,
            auth("alice:wrong-pw-123")
        ),
    );
    let out = ctx.fails_in(&app, &["add", &reference]);
    assert!(!out.stderr.contains("wrong-pw-123") && !out.stdout.contains("wrong-pw-123"));
    assert!(!out.stderr.contains(&auth("alice:wrong-pw-123")));
    let stderr = ctx.redact(&out.stderr).replace(&host, "[HOST]");
    assert!(
        stderr.contains("[HOST] refused user 'alice' from [TEMP]/home/.docker/config.json (auths) (401 Unauthorized)"),
        "{stderr}"
    );

    // The right one, from `auths`.
    docker_config(
        &ctx,
        &format!(
            r#"{{"auths": {{"https://{host}/v1/": {{"auth": "{}"}}}}}}"#,
            auth("alice:s3cret-pw")
        ),
    );
    ctx.ok_in(&app, &["add", &reference]);
    assert!(app.join(".agents/skills/pdf/SKILL.md").is_file());

    // From a credential helper on PATH, asked with the host on stdin.
    let bin = ctx.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let helper = bin.join("docker-credential-test");
    std::fs::write(
        &helper,
        format!(
            "#!/bin/sh\nread host\n[ \"$1\" = get ] && [ \"$host\" = \"{host}\" ] || exit 1\necho '{{\"ServerURL\":\"'$host'\",\"Username\":\"alice\",\"Secret\":\"s3cret-pw\"}}'\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&helper, std::fs::Permissions::from_mode(0o755)).unwrap();
    docker_config(&ctx, &format!(r#"{{"credHelpers": {{"{host}": "test"}}}}"#));
    let copy = fresh_copy(&ctx, &app);
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = crate::common::run(
        ctx.command()
            .current_dir(&copy)
            .env("PATH", &path)
            .args(["install", "--locked"]),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(tree(&app.join(".agents/skills")) == tree(&copy.join(".agents/skills")));
}

#[test]
fn a_plain_image_pushed_by_skopeo_installs() {
    let Some(registry) = Registry::start() else {
        return;
    };
    if !crate::common::has_program("skopeo", "skopeo") {
        return;
    }
    // An OCI image layout of one layer holding a skill at its top, as
    // `tar -C skill .` writes it.
    let ctx = TestContext::new();
    let layout = ctx.root().join("layout");
    let skill_md = b"---\nname: notes\ndescription: Takes notes. Use when testing.\n---\nNotes.\n";
    let layer_bytes = layer(&[
        Entry::File("./SKILL.md", skill_md),
        Entry::File("./refs/a.md", b"a\n"),
    ]);
    let diff_id = {
        use std::io::Read as _;
        let mut tar = Vec::new();
        flate2::read::GzDecoder::new(layer_bytes.as_slice())
            .read_to_end(&mut tar)
            .unwrap();
        crate::common::registry::digest_of(&tar)
    };
    let config = serde_json::to_vec(&serde_json::json!({
        "architecture": "amd64", "os": "linux",
        "rootfs": {"type": "layers", "diff_ids": [diff_id]},
    }))
    .unwrap();
    let blob = |bytes: &[u8]| {
        let digest = crate::common::registry::digest_of(bytes);
        let path = layout.join("blobs/sha256").join(&digest[7..]);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
        serde_json::json!({"digest": digest, "size": bytes.len()})
    };
    let mut config_descriptor = blob(&config);
    config_descriptor["mediaType"] = "application/vnd.oci.image.config.v1+json".into();
    let mut layer_descriptor = blob(&layer_bytes);
    layer_descriptor["mediaType"] = "application/vnd.oci.image.layer.v1.tar+gzip".into();
    let manifest = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": config_descriptor, "layers": [layer_descriptor],
    }))
    .unwrap();
    let mut manifest_descriptor = blob(&manifest);
    manifest_descriptor["mediaType"] = "application/vnd.oci.image.manifest.v1+json".into();
    manifest_descriptor["annotations"] =
        serde_json::json!({"org.opencontainers.image.ref.name": "v1"});
    std::fs::write(
        layout.join("oci-layout"),
        r#"{"imageLayoutVersion": "1.0.0"}"#,
    )
    .unwrap();
    std::fs::write(
        layout.join("index.json"),
        serde_json::to_vec(
            &serde_json::json!({"schemaVersion": 2, "manifests": [manifest_descriptor]}),
        )
        .unwrap(),
    )
    .unwrap();
    let out = crate::common::run(std::process::Command::new("skopeo").args([
        "copy",
        "--dest-tls-verify=false",
        &format!("oci:{}:v1", layout.display()),
        &format!("docker://{}/tools/notes:v1", registry.host()),
    ]));
    assert_eq!(out.status, 0, "skopeo: {}", out.stderr);
    let app = new_project(&ctx, None);
    ctx.ok_in(
        &app,
        &["add", &format!("oci://{}/tools/notes:v1", registry.host())],
    );
    assert!(app.join(".agents/skills/notes/refs/a.md").is_file());
    assert!(lock_entry(&app, "notes").contains(&format!(
        "#{}",
        crate::common::registry::digest_of(&manifest)
    )));
}

#[test]
fn a_toolhive_index_installs_the_skill_of_its_images() {
    let Some(registry) = Registry::start() else {
        return;
    };
    // ToolHive's layout: an image index (artifactType
    // dev.toolhive.skills.v1) of one image per platform, each a standard
    // image of one layer holding the skill's files at its top.
    let skill_md = b"---\nname: review\ndescription: Reviews. Use when testing.\n---\nReview.\n";
    let layer_bytes = layer(&[Entry::File("SKILL.md", skill_md)]);
    let config = br#"{"architecture":"amd64","os":"linux","config":{"Labels":{"dev.toolhive.skills.name":"review"}},"rootfs":{"type":"layers","diff_ids":[]}}"#.to_vec();
    let descriptor = |media_type: &str, bytes: &[u8]| serde_json::json!({"mediaType": media_type, "digest": digest_of(bytes), "size": bytes.len()});
    let image = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": descriptor("application/vnd.oci.image.config.v1+json", &config),
        "layers": [descriptor("application/vnd.oci.image.layer.v1.tar+gzip", &layer_bytes)],
    }))
    .unwrap();
    let image = Artifact {
        blobs: vec![
            (digest_of(&config), config),
            (digest_of(&layer_bytes), layer_bytes),
        ],
        manifest: image,
        media_type: "application/vnd.oci.image.manifest.v1+json",
    };
    let image_digest = registry.push("tools/review", &image.digest(), &image);
    let mut entry = descriptor(
        "application/vnd.oci.image.manifest.v1+json",
        &image.manifest,
    );
    entry["platform"] = serde_json::json!({"os": "linux", "architecture": "arm64"});
    let index = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "artifactType": "dev.toolhive.skills.v1",
        "manifests": [entry],
    }))
    .unwrap();
    let index = Artifact {
        blobs: Vec::new(),
        manifest: index,
        media_type: "application/vnd.oci.image.index.v1+json",
    };
    let index_digest = registry.push("tools/review", "v1", &index);
    assert_ne!(index_digest, image_digest);
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    ctx.ok_in(
        &app,
        &["add", &format!("oci://{}/tools/review:v1", registry.host())],
    );
    assert!(app.join(".agents/skills/review/SKILL.md").is_file());
    // The lock pins what the tag named: the index.
    assert!(lock_entry(&app, "review").contains(&format!("?tag=v1#{index_digest}\"")));
}

#[test]
fn an_oms_policy_on_a_registry_namespace_covers_its_artifacts() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/oms");
    let files: Vec<(String, Vec<u8>)> = tree(&fixtures.join("signed"))
        .into_iter()
        .map(|(name, bytes)| (format!("signed/{name}"), bytes))
        .collect();
    let signed = skill_artifact("signed", "1.0.0", layer(&entries(&files)));
    registry.push("skills/signed", "1.0.0", &signed);
    let unsigned: Vec<_> = files
        .iter()
        .filter(|(name, _)| !name.ends_with("skill.oms.sig"))
        .cloned()
        .collect();
    registry.push(
        "skills/signed",
        "2.0.0",
        &skill_artifact("signed", "2.0.0", layer(&entries(&unsigned))),
    );
    let ctx = TestContext::new();
    // A policy on the namespace, given with a tag: it covers the
    // repository, whatever the tag.
    let root = fixtures.join("root.pem");
    let policy = format!("oci://{}/skills:latest", registry.host());
    ctx.ok(&["trust", &policy, "--oms-root", root.to_str().unwrap()]);
    let app = new_project(&ctx, None);
    let reference = |tag: &str| format!("oci://{}/skills/signed:{tag}", registry.host());
    ctx.ok_in(&app, &["add", &reference("1.0.0")]);
    assert!(lock_entry(&app, "signed").contains("signer = { oms = { subject = \""));
    ctx.ok_in(&app, &["remove", "signed"]);
    let out = ctx.fails_in(&app, &["add", &reference("2.0.0")]);
    assert!(
        out.stderr.contains("it carries no skill.oms.sig"),
        "{}",
        out.stderr
    );
    assert!(!app.join(".agents/skills/signed").exists());
}

/// An Agent Skills collection of `skills` (pushed into `repository` by
/// digest), tagged `tag`; returns its digest.
fn push_collection(
    registry: &Registry,
    repository: &str,
    tag: &str,
    skills: &[(&str, &Artifact)],
) -> String {
    let mut manifests = Vec::new();
    for (name, artifact) in skills {
        registry.push(repository, &artifact.digest(), artifact);
        manifests.push(serde_json::json!({
            "mediaType": artifact.media_type,
            "digest": artifact.digest(),
            "size": artifact.manifest.len(),
            "annotations": {"io.agentskills.skill.name": name},
        }));
    }
    let index = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "artifactType": "application/vnd.agentskills.collection.v1",
        "manifests": manifests,
    }))
    .unwrap();
    let collection = Artifact {
        blobs: Vec::new(),
        manifest: index,
        media_type: "application/vnd.oci.image.index.v1+json",
    };
    registry.push(repository, tag, &collection)
}

#[test]
fn a_collection_adds_each_of_its_skills_and_moves_with_its_tag() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let host = registry.host();
    let (pdf, docx) = (
        simple_skill("pdf", "1.0.0", "One."),
        simple_skill("docx", "1.0.0", "Docs."),
    );
    let first = push_collection(
        &registry,
        "skills/office",
        "v1",
        &[("pdf", &pdf), ("docx", &docx)],
    );
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let out = ctx.ok_in(&app, &["add", &format!("oci://{host}/skills/office:v1")]);
    insta::assert_snapshot!(out.stderr, @"
       Installed docx v1.0.0
       Installed pdf v1.0.0
    ");
    let manifest = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "pdf = {{ oci = \"{host}/skills/office\", tag = \"v1\", skill = \"pdf\" }}"
        )),
        "{manifest}"
    );
    for name in ["pdf", "docx"] {
        assert!(
            lock_entry(&app, name).contains(&format!("?tag=v1&skill={name}#{first}\"")),
            "{name}"
        );
    }
    // The collection's tag moves to a new pdf: update follows it.
    let pdf2 = simple_skill("pdf", "1.1.0", "Two.");
    push_collection(
        &registry,
        "skills/office",
        "v1",
        &[("pdf", &pdf2), ("docx", &docx)],
    );
    ctx.ok_in(&app, &["install"]);
    let skill_md = app.join(".agents/skills/pdf/SKILL.md");
    assert!(std::fs::read_to_string(&skill_md).unwrap().contains("One."));
    let out = ctx.ok_in(&app, &["update"]);
    // docx's files and version stayed; the collection it is pinned by moved.
    insta::assert_snapshot!(ctx.redact(&out.stderr), @"
         Updated docx v1.0.0 (sha256:[SHORT] → sha256:[SHORT])
         Updated pdf v1.0.0 → v1.1.0
    ");
    assert!(std::fs::read_to_string(&skill_md).unwrap().contains("Two."));
}
