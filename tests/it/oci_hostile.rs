//! Registries that lie or move things: a loopback stand-in for a registry
//! (axum) that serves what a test tells it to, answers `401` with a
//! bearer challenge, and redirects. What the descriptors say is checked
//! against what arrives, redirects are followed only where DESIGN §11
//! allows, credentials never leave the registry's origin, and a refused
//! artifact leaves nothing behind.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{HeaderMap, Uri, header};
use axum::response::Response;

use crate::common::registry::{Artifact, simple_skill};
use crate::common::{TestContext, new_project};

/// What the stand-in serves, and what it saw.
#[derive(Default)]
struct Served {
    /// Manifests by tag or digest: bytes and media type.
    manifests: HashMap<String, (Vec<u8>, String)>,
    /// Blobs by digest (whatever bytes a test puts there).
    blobs: HashMap<String, Vec<u8>>,
    /// Blob requests are redirected to this URL prefix (and the digest).
    redirect_blobs: Option<String>,
    /// Manifest requests are redirected to this URL prefix.
    redirect_manifests: Option<String>,
    /// Requests for the registry need `Authorization: Bearer <token>`,
    /// which `/token` gives.
    token: Option<String>,
    /// Every request: path and `Authorization` header.
    log: Vec<(String, Option<String>)>,
}

/// A stand-in registry on loopback; stopped when dropped.
struct Standin {
    addr: SocketAddr,
    served: Arc<Mutex<Served>>,
    _runtime: tokio::runtime::Runtime,
}

impl Standin {
    fn start() -> Standin {
        let served = Arc::new(Mutex::new(Served::default()));
        let state = served.clone();
        let (addr, runtime) = crate::server::serve_on_loopback(axum::Router::new().fallback(
            move |uri: Uri, headers: HeaderMap| {
                let state = state.clone();
                async move { answer(&state, &uri, &headers) }
            },
        ));
        Standin {
            addr,
            served,
            _runtime: runtime,
        }
    }

    fn host(&self) -> String {
        self.addr.to_string()
    }

    /// Serves `artifact` as `repository:tag` (and by its digest).
    fn serve(&self, tag: &str, artifact: &Artifact) {
        let mut served = self.served.lock().unwrap();
        let manifest = (artifact.manifest.clone(), artifact.media_type.to_string());
        served.manifests.insert(tag.to_string(), manifest.clone());
        served.manifests.insert(artifact.digest(), manifest);
        for (digest, bytes) in &artifact.blobs {
            served.blobs.insert(digest.clone(), bytes.clone());
        }
    }

    fn with(&self, change: impl FnOnce(&mut Served)) {
        change(&mut self.served.lock().unwrap());
    }

    fn log(&self) -> Vec<(String, Option<String>)> {
        self.served.lock().unwrap().log.clone()
    }
}

fn answer(state: &Mutex<Served>, uri: &Uri, headers: &HeaderMap) -> Response {
    let mut served = state.lock().unwrap();
    let authorization = headers
        .get(header::AUTHORIZATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let path = uri.path().to_string();
    served.log.push((path.clone(), authorization.clone()));
    let status = |code: u16| {
        Response::builder()
            .status(code)
            .body(Body::empty())
            .unwrap()
    };
    let host = headers
        .get(header::HOST)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_default();
    if path == "/token" {
        let token = served.token.clone().unwrap_or_default();
        return Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(format!(r#"{{"token": "{token}"}}"#)))
            .unwrap();
    }
    if let Some(token) = &served.token
        && authorization.as_deref() != Some(&format!("Bearer {token}"))
    {
        return Response::builder()
            .status(401)
            .header(
                header::WWW_AUTHENTICATE,
                format!(r#"Bearer realm="http://{host}/token",service="standin",scope="repository:skills/pdf:pull""#),
            )
            .body(Body::empty())
            .unwrap();
    }
    let Some(rest) = path.strip_prefix("/v2/skills/pdf/") else {
        return status(404);
    };
    let redirect = |to: String| {
        Response::builder()
            .status(307)
            .header(header::LOCATION, to)
            .body(Body::empty())
            .unwrap()
    };
    if let Some(reference) = rest.strip_prefix("manifests/") {
        if let Some(to) = &served.redirect_manifests {
            return redirect(format!("{to}{reference}"));
        }
        return match served.manifests.get(reference) {
            Some((bytes, media_type)) => Response::builder()
                .header(header::CONTENT_TYPE, media_type)
                .body(Body::from(bytes.clone()))
                .unwrap(),
            None => status(404),
        };
    }
    if let Some(digest) = rest.strip_prefix("blobs/") {
        if let Some(to) = &served.redirect_blobs {
            return redirect(format!("{to}{digest}"));
        }
        return match served.blobs.get(digest) {
            Some(bytes) => Response::builder().body(Body::from(bytes.clone())).unwrap(),
            None => status(404),
        };
    }
    status(404)
}

/// A stand-in serving `artifact` as `skills/pdf:1.0.0`.
fn serving(artifact: &Artifact) -> Standin {
    let standin = Standin::start();
    standin.serve("1.0.0", artifact);
    standin
}

/// A new project with `skills/pdf:1.0.0` of `registry` added.
fn added_from(ctx: &TestContext, registry: &Standin) -> std::path::PathBuf {
    let app = new_project(ctx, None);
    let reference = format!("oci://{}/skills/pdf:1.0.0", registry.host());
    ctx.ok_in(&app, &["add", &reference]);
    app
}

/// Asserts that `stderr` says `expected`.
#[track_caller]
fn says(stderr: &str, expected: &str) {
    assert!(
        stderr.contains(expected),
        "expected {expected:?} in:\n{stderr}"
    );
}

/// The layer's digest of an artifact made by [`simple_skill`].
fn layer_digest(artifact: &Artifact) -> String {
    artifact.blobs[1].0.clone()
}

/// Runs `add oci://<host>/skills/pdf:1.0.0` and expects it to fail,
/// leaving nothing installed, recorded, cached or staged; returns stderr
/// with the hosts redacted.
fn add_refused(ctx: &TestContext, standins: &[&Standin]) -> String {
    let app = new_project(ctx, None);
    let before = std::fs::read_to_string(app.join("skills.toml")).unwrap();
    let reference = format!("oci://{}/skills/pdf:1.0.0", standins[0].host());
    let out = ctx.fails_in(&app, &["add", &reference]);
    assert_eq!(
        std::fs::read_to_string(app.join("skills.toml")).unwrap(),
        before
    );
    assert!(!app.join(".agents/skills/pdf").exists());
    let staging = app.join(".skillpkg/staging");
    let left: Vec<_> = std::fs::read_dir(&staging)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left in staging: {left:?}");
    let mut stderr = out.stderr;
    for (i, standin) in standins.iter().enumerate() {
        stderr = stderr.replace(&standin.host(), &format!("[HOST{i}]"));
    }
    stderr
}

#[test]
fn a_layer_that_does_not_hash_to_its_digest_is_refused() {
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    let registry = serving(&artifact);
    let digest = layer_digest(&artifact);
    // Other bytes of the same length under the layer's digest.
    let mut tampered = artifact.blobs[1].1.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 0xff;
    registry.with(|served| {
        served.blobs.insert(digest.clone(), tampered);
    });
    let ctx = TestContext::new();
    let stderr = add_refused(&ctx, &[&registry]);
    assert!(
        stderr.contains("the blob's bytes hash to sha256:")
            && stderr.contains(&format!("not to the {digest} its manifest gives; refused")),
        "{stderr}"
    );
    let cached = ctx.root().join("cache/oci/blobs/sha256").join(&digest[7..]);
    assert!(
        !cached.exists(),
        "a blob that failed its digest is not cached"
    );
}

#[test]
fn a_layer_larger_than_its_descriptor_says_is_cut_off() {
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    let registry = serving(&artifact);
    let digest = layer_digest(&artifact);
    registry.with(|served| {
        served
            .blobs
            .get_mut(&digest)
            .unwrap()
            .extend(vec![0u8; 1 << 20]);
    });
    let ctx = TestContext::new();
    let stderr = add_refused(&ctx, &[&registry]);
    let size = artifact.blobs[1].1.len();
    says(
        &stderr,
        &format!(
            "the registry sends more than the {size} bytes the manifest gives the blob; refused"
        ),
    );
}

#[test]
fn a_layer_over_the_size_limit_is_not_downloaded() {
    let registry = Standin::start();
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    let digest = layer_digest(&artifact);
    let size = artifact.blobs[1].1.len();
    // The manifest says the layer is 300 MiB.
    let manifest = String::from_utf8(artifact.manifest.clone())
        .unwrap()
        .replace(
            &format!("\"size\":{size}"),
            &format!("\"size\":{}", 300u64 << 20),
        );
    let oversized = Artifact {
        manifest: manifest.into_bytes(),
        ..artifact
    };
    registry.serve("1.0.0", &oversized);
    let ctx = TestContext::new();
    let stderr = add_refused(&ctx, &[&registry]);
    assert!(
        stderr.contains(
            "its layer of 314572800 bytes is larger than an archive of a skill within the limits"
        ),
        "{stderr}"
    );
    assert!(
        !registry
            .log()
            .iter()
            .any(|(path, _)| path.ends_with(&digest)),
        "the layer was asked for"
    );
}

#[test]
fn a_manifest_that_does_not_hash_to_its_digest_is_refused() {
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    let registry = serving(&artifact);
    let ctx = TestContext::new();
    let app = added_from(&ctx, &registry);
    // The registry now answers the locked digest with other bytes.
    let other = simple_skill("pdf", "6.6.6", "Evil.");
    registry.with(|served| {
        let evil = (other.manifest.clone(), other.media_type.to_string());
        served.manifests.insert(artifact.digest(), evil);
        served.blobs.extend(other.blobs.iter().cloned());
    });
    std::fs::remove_dir_all(ctx.root().join("cache")).unwrap();
    std::fs::remove_dir_all(app.join(".agents/skills/pdf")).unwrap();
    let out = ctx.fails_in(&app, &["install", "--locked"]);
    let stderr = out.stderr.replace(&registry.host(), "[HOST]");
    assert!(
        stderr.contains(&format!(
            "[HOST]/skills/pdf@{}: the registry sent a manifest of",
            artifact.digest()
        )) && stderr.contains(&format!("hashing to {}; refused", other.digest())),
        "{stderr}"
    );
    assert!(!app.join(".agents/skills/pdf").exists());
}

#[test]
fn a_bearer_challenge_is_answered_and_a_blob_moves_to_a_cdn_without_credentials() {
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    let (registry, cdn) = (serving(&artifact), serving(&artifact));
    registry.with(|served| {
        served.token = Some("anon-token-1".to_string());
        served.redirect_blobs = Some(format!("http://{}/v2/skills/pdf/blobs/", cdn.host()));
    });
    let ctx = TestContext::new();
    let app = added_from(&ctx, &registry);
    assert!(app.join(".agents/skills/pdf/SKILL.md").is_file());
    let log = registry.log();
    assert!(
        log.iter()
            .any(|(path, auth)| path == "/token" && auth.is_none()),
        "{log:?}"
    );
    assert!(
        log.iter().any(|(path, auth)| path.contains("/manifests/")
            && auth.as_deref() == Some("Bearer anon-token-1")),
        "{log:?}"
    );
    let at_cdn = cdn.log();
    assert!(
        at_cdn.iter().any(|(path, _)| path.contains("/blobs/")),
        "{at_cdn:?}"
    );
    assert!(
        at_cdn.iter().all(|(_, auth)| auth.is_none()),
        "credentials reached the CDN: {at_cdn:?}"
    );
}

#[test]
fn a_blob_from_a_cdn_is_checked_against_its_digest() {
    let registry = Standin::start();
    let cdn = Standin::start();
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    registry.serve("1.0.0", &artifact);
    let other = simple_skill("pdf", "1.0.0", "Evil.");
    let digest = layer_digest(&artifact);
    cdn.serve("1.0.0", &artifact);
    cdn.with(|served| {
        served
            .blobs
            .insert(digest.clone(), other.blobs[1].1.clone());
    });
    registry.with(|served| {
        served.redirect_blobs = Some(format!("http://{}/v2/skills/pdf/blobs/", cdn.host()));
    });
    let ctx = TestContext::new();
    let stderr = add_refused(&ctx, &[&registry, &cdn]);
    says(
        &stderr,
        &format!("http://[HOST1]/v2/skills/pdf/blobs/{digest}: the blob's bytes hash to"),
    );
}

#[test]
fn a_manifest_redirected_to_another_host_is_not_followed() {
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    let (registry, elsewhere) = (serving(&artifact), serving(&artifact));
    registry.with(|served| {
        served.redirect_manifests = Some(format!(
            "http://{}/v2/skills/pdf/manifests/",
            elsewhere.host()
        ));
    });
    let ctx = TestContext::new();
    let stderr = add_refused(&ctx, &[&registry, &elsewhere]);
    insta::assert_snapshot!(stderr, @"
    error: could not get oci://[HOST0]/skills/pdf:1.0.0
      Caused by: http://[HOST0]/v2/skills/pdf/manifests/1.0.0: the registry redirects to http://[HOST1]/v2/skills/pdf/manifests/1.0.0, and skillpkg does not follow: it leads to another host ([HOST1]), and only blobs may move
    hint: the registry, or something between it and you, is misconfigured or hostile
    ");
    assert!(elsewhere.log().is_empty(), "the other host was asked");
}

#[test]
fn a_registry_token_from_the_environment_goes_to_its_registry() {
    let artifact = simple_skill("pdf", "1.0.0", "One.");
    let registry = serving(&artifact);
    registry.with(|served| served.token = Some("from-env-7".to_string()));
    let ctx = TestContext::new();
    let app = new_project(&ctx, None);
    let variable = format!(
        "SKILLPKG_REGISTRY_TOKEN_{}",
        registry.host().replace(['.', ':'], "_")
    );
    let out = crate::common::run(
        ctx.command()
            .current_dir(&app)
            .env(&variable, "from-env-7")
            .args([
                "add",
                &format!("oci://{}/skills/pdf:1.0.0", registry.host()),
            ]),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let log = registry.log();
    assert!(!log.iter().any(|(path, _)| path == "/token"), "{log:?}");
    assert!(
        log.iter()
            .any(|(path, auth)| path.contains("/blobs/")
                && auth.as_deref() == Some("Bearer from-env-7")),
        "{log:?}"
    );
}

#[test]
fn a_config_version_that_is_no_semver_is_not_taken() {
    let skill_md = b"---\nname: pdf\ndescription: PDF. Use when testing.\n---\nBody.\n";
    let layer = crate::common::registry::layer(&[crate::common::registry::Entry::File(
        "pdf/SKILL.md",
        skill_md,
    )]);
    let artifact =
        crate::common::registry::skill_artifact("pdf", "1.0.0\n[[skill]]\u{1b}[31m", layer);
    let registry = serving(&artifact);
    let ctx = TestContext::new();
    let app = added_from(&ctx, &registry);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains("version = \"0.0.0\""), "{lock}");
}
