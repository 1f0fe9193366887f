//! An HTTPS index on loopback, served by `openssl s_server` with a
//! certificate from a certificate authority made for the test: trusted
//! through `SSL_CERT_FILE`, it installs; untrusted, it is refused at once,
//! without retries, saying how to trust it. The client loads root
//! certificates on the first handshake (`src/net/tls.rs`), so these
//! tests also check that the verification still happens.

use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common::{TestContext, copy_dir, has_program, new_project, repo_index, wait_until};

/// `openssl s_server -WWW` serving a folder, stopped on drop.
struct TlsServer {
    child: Child,
    port: u16,
}

impl TlsServer {
    /// Serves `root` over TLS with `cert` and `key`, on a free port.
    fn start(root: &Path, cert: &Path, key: &Path) -> TlsServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("openssl")
            .args(["s_server", "-quiet", "-WWW", "-accept"])
            .arg(format!("127.0.0.1:{port}"))
            .arg("-cert")
            .arg(cert)
            .arg("-key")
            .arg(key)
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_until(
            || TcpStream::connect(("127.0.0.1", port)).is_ok(),
            || format!("openssl s_server listening on {port}"),
        );
        TlsServer { child, port }
    }

    fn url(&self) -> String {
        format!("https://localhost:{}/", self.port)
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `openssl` with `args` in `dir`.
fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A certificate authority (`ca.pem`) and a certificate it issued for
/// `localhost` (`cert.pem`, `key.pem`), in `dir`.
fn make_certificates(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let ca = [
        &["req", "-x509"][..],
        &ec,
        &["-keyout", "ca.key", "-out", "ca.pem"],
    ];
    openssl(
        dir,
        &[
            ca.concat(),
            vec!["-days", "2", "-subj", "/CN=skillpkg test CA"],
        ]
        .concat(),
    );
    let leaf = [
        &["req"][..],
        &ec,
        &["-keyout", "key.pem", "-out", "leaf.csr"],
    ];
    openssl(
        dir,
        &[leaf.concat(), vec!["-subj", "/CN=localhost"]].concat(),
    );
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
            "-out",
            "cert.pem",
        ],
    );
}

#[test]
fn an_https_index_installs_when_its_certificate_is_trusted_and_is_refused_at_once_when_not() {
    if !has_program("openssl", "openssl") {
        return;
    }
    let ctx = TestContext::new();
    let certs = ctx.root().join("certs");
    make_certificates(&certs);
    let www = ctx.root().join("www");
    copy_dir(&repo_index(), &www);
    let server = TlsServer::start(&www, &certs.join("cert.pem"), &certs.join("key.pem"));
    let app = new_project(&ctx, Some(&server.url()));

    // Not trusted: one attempt, and how to trust it.
    let out = crate::common::run(
        ctx.command()
            .current_dir(&app)
            .env_remove("SSL_CERT_DIR")
            .env_remove("SSL_CERT_FILE")
            .args(["add", "example/pdf-processing"]),
    );
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("invalid peer certificate: UnknownIssuer"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("attempts failed"), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("hint: the server's TLS certificate is not one this machine trusts (UnknownIssuer); if it comes from your own certificate authority, point SSL_CERT_FILE at that authority's certificate"),
        "{}",
        out.stderr
    );
    assert!(!app.join("skills.lock").exists());

    // Trusted through SSL_CERT_FILE: it installs over TLS.
    let out = crate::common::run(
        ctx.command()
            .current_dir(&app)
            .env_remove("SSL_CERT_DIR")
            .env("SSL_CERT_FILE", certs.join("ca.pem"))
            .args(["add", "example/pdf-processing"]),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        app.join(".agents/skills/pdf-processing/SKILL.md").is_file(),
        "{}",
        out.stderr
    );
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains(&server.url()), "{lock}");
}
