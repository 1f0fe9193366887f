//! An Agent Plugin shipped as an OCI image (one tar+gzip layer holding
//! `plugin.json`, `skills/<name>/` and `mcp.json`): `add oci://…` installs
//! each of its skills as an entry of its own, sharing the artifact's pin;
//! `--list` and `--skill` pick from it.

use crate::common::registry::{Artifact, Entry, Registry, digest_of, layer};
use crate::common::{TestContext, fresh_copy, new_project, tree};
use crate::plugins::{manifest, plugin_folder};

/// A plain image whose one layer holds every file under `dir`, at the
/// layer's top.
fn image_of(dir: &std::path::Path) -> Artifact {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let name = e.path().strip_prefix(dir).unwrap().display().to_string();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    let entries: Vec<Entry> = files
        .iter()
        .map(|(name, bytes)| Entry::File(name, bytes))
        .collect();
    let layer_bytes = layer(&entries);
    let config = serde_json::to_vec(&serde_json::json!({
        "architecture": "amd64", "os": "linux", "rootfs": {"type": "layers", "diff_ids": []},
    }))
    .unwrap();
    let descriptor = |media_type: &str, bytes: &[u8]| serde_json::json!({"mediaType": media_type, "digest": digest_of(bytes), "size": bytes.len()});
    let manifest = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": descriptor("application/vnd.oci.image.config.v1+json", &config),
        "layers": [descriptor("application/vnd.oci.image.layer.v1.tar+gzip", &layer_bytes)],
    }))
    .unwrap();
    Artifact {
        blobs: vec![
            (digest_of(&config), config),
            (digest_of(&layer_bytes), layer_bytes),
        ],
        manifest,
        media_type: "application/vnd.oci.image.manifest.v1+json",
    }
}

#[test]
fn a_plugin_in_an_image_installs_each_of_its_skills_pinned_by_the_artifact() {
    let Some(registry) = Registry::start() else {
        return;
    };
    let ctx = TestContext::new();
    let plugin = plugin_folder(&ctx, "plugin", "plugin.json", &manifest(""));
    let digest = registry.push("tools/acme", "1.2.0", &image_of(&plugin));
    let reference = format!("oci://{}/tools/acme:1.2.0", registry.host());
    let app = new_project(&ctx, None);

    let out = ctx.ok_in(&app, &["add", &reference, "--list"]);
    assert_eq!(out.stdout, "alpha\nbeta\n");
    let out = ctx.ok_in(&app, &["add", &reference]);
    let short = &digest["sha256:".len().."sha256:".len() + 12];
    insta::assert_snapshot!(out.stderr.replace(short, "DIGEST"), @r"
          Plugin acme-tools 1.2.0, an Agent Plugin (plugin.json), holds 2 skills: alpha, beta
    warning: plugin acme-tools 1.2.0: its MCP servers (mcp.json) are left out: skillpkg installs the plugin's skills, and does not run or register MCP servers
       Installed alpha sha256:DIGEST
       Installed beta sha256:DIGEST
    ");
    let manifest_text = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let host = registry.host();
    for name in ["alpha", "beta"] {
        assert!(
            manifest_text.contains(&format!(
                "{name} = {{ oci = \"{host}/tools/acme\", tag = \"1.2.0\", skill = \"{name}\" }}"
            )),
            "{manifest_text}"
        );
        assert_eq!(
            tree(&app.join(".agents/skills").join(name)),
            tree(&plugin.join("skills").join(name))
        );
    }
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert_eq!(
        lock.matches(&format!("#{digest}\"")).count(),
        2,
        "both skills share the artifact's pin: {lock}"
    );
    // Nothing else of the plugin is installed: not its MCP servers, not a
    // SKILL.md outside skills/.
    assert!(!app.join(".agents/skills/hidden").exists());
    assert!(!app.join(".agents/skills/nested").exists());

    // A fresh copy reproduces both trees from the locked digest.
    let copy = fresh_copy(&ctx, &app);
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    ctx.ok_in(&copy, &["install", "--locked"]);
    for name in ["alpha", "beta"] {
        assert_eq!(
            tree(&copy.join(".agents/skills").join(name)),
            tree(&plugin.join("skills").join(name))
        );
    }

    // --skill picks one.
    let other = ctx.root().join("other");
    ctx.ok(&["init", other.to_str().unwrap()]);
    let out = ctx.ok_in(&other, &["add", &reference, "--skill", "beta"]);
    assert!(
        out.stderr.contains("holds 1 skill: beta") && out.stderr.contains("Installed beta sha256:"),
        "{}",
        out.stderr
    );
    assert!(!other.join(".agents/skills/alpha").exists());
}
