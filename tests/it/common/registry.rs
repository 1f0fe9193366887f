//! OCI registries for the tests: the CNCF distribution registry
//! (`docker-registry`, Debian's package) run on loopback with its storage
//! in a temp dir, the artifacts tests put in registries (Agent Skills
//! artifacts, plain images, tar layers that attack), and a pusher that
//! speaks the distribution protocol with plain HTTP requests
//! (monolithic blob uploads, manifest PUTs): an uploader independent of
//! skillpkg.

use std::io::{BufRead as _, Read as _, Write as _};
use std::process::{Child, Command, Stdio};

use sha2::{Digest as _, Sha256};

use super::{has_program, wait_until};

/// A `docker-registry` on 127.0.0.1, stopped (and its storage removed)
/// when dropped.
pub(crate) struct Registry {
    child: Child,
    host: String,
    /// `user:password` every request needs, if the registry wants logins.
    login: Option<String>,
    _dir: tempfile::TempDir,
}

impl Registry {
    /// A registry anyone may push to and pull from; `None` (said loudly,
    /// and a failure under CI) when `docker-registry` is not installed.
    pub(crate) fn start() -> Option<Registry> {
        Registry::start_with(None)
    }

    /// A registry that wants `user` and `password` (htpasswd, bcrypt) for
    /// every request; `None` as [`Registry::start`] says.
    pub(crate) fn with_login(user: &str, password: &str) -> Option<Registry> {
        if !has_program("htpasswd", "apache2-utils") {
            return None;
        }
        Registry::start_with(Some((user, password)))
    }

    fn start_with(login: Option<(&str, &str)>) -> Option<Registry> {
        if !has_program("docker-registry", "docker-registry") {
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut config = format!(
            "version: 0.1\nlog:\n  level: info\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: {}\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:0\n  secret: skillpkg-tests\n",
            dir.path().join("data").display()
        );
        if let Some((user, password)) = login {
            let out = Command::new("htpasswd")
                .args(["-Bbn", user, password])
                .output()
                .unwrap();
            assert!(out.status.success(), "htpasswd failed");
            let file = dir.path().join("htpasswd");
            std::fs::write(&file, out.stdout).unwrap();
            config.push_str(&format!(
                "auth:\n  htpasswd:\n    realm: skillpkg-tests\n    path: {}\n",
                file.display()
            ));
        }
        let config_file = dir.path().join("config.yml");
        std::fs::write(&config_file, config).unwrap();
        let mut child = Command::new("docker-registry")
            .arg("serve")
            .arg(&config_file)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // It says where it listens (port 0: the system picks one), then
        // keeps logging: the rest is drained so that it never blocks.
        let (found, port) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut found = Some(found);
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                if let Some(at) = line.find("listening on 127.0.0.1:")
                    && let Some(found) = found.take()
                {
                    let rest = &line[at + "listening on 127.0.0.1:".len()..];
                    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    let _ = found.send(digits);
                }
            }
        });
        let port = port
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("docker-registry said where it listens");
        let registry = Registry {
            child,
            host: format!("127.0.0.1:{port}"),
            login: login.map(|(user, password)| format!("{user}:{password}")),
            _dir: dir,
        };
        wait_until(
            || {
                let (status, _) = http(&registry.host, "GET", "/v2/", &[], b"");
                status == 200 || status == 401
            },
            || format!("docker-registry answering at {}", registry.host),
        );
        Some(registry)
    }

    /// `127.0.0.1:PORT`.
    pub(crate) fn host(&self) -> &str {
        &self.host
    }

    /// Pushes `artifact` into `repository`, tagged `tag`; returns its
    /// manifest's digest.
    pub(crate) fn push(&self, repository: &str, tag: &str, artifact: &Artifact) -> String {
        let auth = self.login.as_ref().map(|login| {
            use base64::Engine as _;
            format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(login)
            )
        });
        let auth: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        for (digest, bytes) in &artifact.blobs {
            let (status, headers) = http(
                &self.host,
                "POST",
                &format!("/v2/{repository}/blobs/uploads/"),
                &auth,
                b"",
            );
            assert_eq!(status, 202, "starting an upload to {repository}");
            let location = header(&headers, "location").expect("an upload location");
            let path = location
                .strip_prefix(&format!("http://{}", self.host))
                .unwrap_or(&location);
            let separator = if path.contains('?') { '&' } else { '?' };
            let (status, _) = http(
                &self.host,
                "PUT",
                &format!("{path}{separator}digest={digest}"),
                &[
                    auth.as_slice(),
                    &[("Content-Type", "application/octet-stream")],
                ]
                .concat(),
                bytes,
            );
            assert_eq!(status, 201, "uploading {digest}");
        }
        let (status, headers) = http(
            &self.host,
            "PUT",
            &format!("/v2/{repository}/manifests/{tag}"),
            &[auth.as_slice(), &[("Content-Type", artifact.media_type)]].concat(),
            &artifact.manifest,
        );
        assert_eq!(status, 201, "pushing the manifest {repository}:{tag}");
        let digest = header(&headers, "docker-content-digest").unwrap();
        assert_eq!(digest, artifact.digest());
        digest
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One plain HTTP/1.1 request to `host`; returns the status and headers
/// (names lower-cased).
pub(crate) fn http(
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Vec<(String, String)>) {
    let Ok(mut stream) = std::net::TcpStream::connect(host) else {
        return (0, Vec::new());
    };
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    (status, headers)
}

fn header(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

/// `sha256:<hex>` of `bytes`.
pub(crate) fn digest_of(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// An artifact to push: its blobs and its manifest.
#[derive(Clone)]
pub(crate) struct Artifact {
    /// `(digest, bytes)` of each blob.
    pub blobs: Vec<(String, Vec<u8>)>,
    /// The manifest (or index).
    pub manifest: Vec<u8>,
    /// The manifest's media type.
    pub media_type: &'static str,
}

impl Artifact {
    /// The manifest's digest.
    pub(crate) fn digest(&self) -> String {
        digest_of(&self.manifest)
    }
}

/// One entry of a tar layer.
pub(crate) enum Entry<'a> {
    /// A regular file (mode 0755 when its name ends in `.sh`).
    File(&'a str, &'a [u8]),
    /// A symbolic link to a target.
    Symlink(&'a str, &'a str),
}

/// A tar.gz of `entries`, names written as given (`..` and all).
pub(crate) fn layer(entries: &[Entry]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for entry in entries {
        let mut header = tar::Header::new_ustar();
        let (name, data): (&str, &[u8]) = match entry {
            Entry::File(name, data) => {
                header.set_entry_type(tar::EntryType::Regular);
                (name, data)
            }
            Entry::Symlink(name, target) => {
                header.set_entry_type(tar::EntryType::Symlink);
                header.set_link_name(target).unwrap();
                (name, b"")
            }
        };
        header.set_size(data.len() as u64);
        header.set_mode(if name.ends_with(".sh") { 0o755 } else { 0o644 });
        let bytes = name.as_bytes();
        header.as_old_mut().name[..bytes.len()].copy_from_slice(bytes);
        header.set_cksum();
        builder.append(&header, data).unwrap();
    }
    let tar = builder.into_inner().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

/// `files` as layer entries.
pub(crate) fn entries(files: &[(String, Vec<u8>)]) -> Vec<Entry<'_>> {
    files
        .iter()
        .map(|(name, bytes)| Entry::File(name, bytes))
        .collect()
}

const OCI_MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";

/// An Agent Skills artifact of the skill `name` whose layer is
/// `layer_bytes` (a tar.gz, rooted at `<name>/` unless it attacks), with
/// `version` in its config.
pub(crate) fn skill_artifact(name: &str, version: &str, layer_bytes: Vec<u8>) -> Artifact {
    let config = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 1,
        "name": name,
        "version": version,
        "description": "A skill in a registry.",
    }))
    .unwrap();
    let descriptor = |media_type: &str, bytes: &[u8]| serde_json::json!({"mediaType": media_type, "digest": digest_of(bytes), "size": bytes.len()});
    let manifest = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": OCI_MANIFEST,
        "artifactType": "application/vnd.agentskills.skill.v1",
        "config": descriptor("application/vnd.agentskills.skill.config.v1+json", &config),
        "layers": [descriptor("application/vnd.agentskills.skill.content.v1.tar+gzip", &layer_bytes)],
        "annotations": {
            "io.agentskills.skill.name": name,
            "org.opencontainers.image.version": version,
        },
    }))
    .unwrap();
    Artifact {
        blobs: vec![
            (digest_of(&config), config),
            (digest_of(&layer_bytes), layer_bytes),
        ],
        manifest,
        media_type: OCI_MANIFEST,
    }
}

/// The Agent Skills artifact of a skill `name` whose SKILL.md says
/// `body`, at `version`.
pub(crate) fn simple_skill(name: &str, version: &str, body: &str) -> Artifact {
    let skill_md = format!(
        "---\nname: {name}\ndescription: {name} from a registry. Use when testing.\nmetadata:\n  version: \"{version}\"\n---\n\n{body}\n"
    );
    let files = [
        (format!("{name}/SKILL.md"), skill_md.into_bytes()),
        (
            format!("{name}/scripts/run.sh"),
            b"#!/bin/sh\necho hi\n".to_vec(),
        ),
    ];
    skill_artifact(name, version, layer(&entries(&files)))
}
