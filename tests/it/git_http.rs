//! Private git repositories over smart HTTP: a loopback server that runs
//! `git http-backend` for requests carrying the right basic-auth
//! credentials and answers 401 to the rest. skillpkg gets the credentials
//! the way git does, from the user's credential helper, and never writes
//! them into skills.toml or skills.lock.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::Response;

use crate::common::{TestContext, git, new_project, write_skill};

struct Shared {
    root: PathBuf,
    /// The `Authorization` every request must carry; `None`: any request
    /// is served.
    authorization: Option<String>,
    refused: AtomicUsize,
    /// Answer 404 for a repository not named with `.git`, as some hosts
    /// do (git's own backend finds `skills.git` for `skills`).
    dot_git_only: bool,
    /// The path and query of every request, in order.
    requests: std::sync::Mutex<Vec<String>>,
}

/// `git http-backend` on 127.0.0.1, behind basic auth or open; stopped
/// when dropped.
pub(crate) struct GitHttpServer {
    pub(crate) addr: SocketAddr,
    shared: Arc<Shared>,
    _runtime: tokio::runtime::Runtime,
}

impl GitHttpServer {
    pub(crate) fn start(root: &Path, user: &str, password: &str) -> GitHttpServer {
        use base64::Engine as _;
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        GitHttpServer::serve(root, Some(format!("Basic {token}")), false)
    }

    /// Serves the repositories under `root` to anyone, only under names
    /// that end in `.git`.
    pub(crate) fn open_dot_git_only(root: &Path) -> GitHttpServer {
        GitHttpServer::serve(root, None, true)
    }

    /// The path and query of every request so far.
    pub(crate) fn requests(&self) -> Vec<String> {
        self.shared.requests.lock().unwrap().clone()
    }

    fn serve(root: &Path, authorization: Option<String>, dot_git_only: bool) -> GitHttpServer {
        let shared = Arc::new(Shared {
            root: root.to_path_buf(),
            authorization,
            refused: AtomicUsize::new(0),
            dot_git_only,
            requests: std::sync::Mutex::new(Vec::new()),
        });
        let (addr, runtime) = crate::server::serve_on_loopback(
            axum::Router::new()
                .fallback(backend)
                .with_state(shared.clone()),
        );
        GitHttpServer {
            addr,
            shared,
            _runtime: runtime,
        }
    }

    pub(crate) fn url(&self, repo: &str) -> String {
        format!("http://{}/{repo}", self.addr)
    }
}

/// Runs `git http-backend` for one request, as CGI.
async fn backend(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    shared.requests.lock().unwrap().push(
        uri.path_and_query()
            .map_or_else(|| uri.path().to_string(), ToString::to_string),
    );
    let authorized = shared.authorization.as_deref().is_none_or(|wanted| {
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            == Some(wanted)
    });
    if !authorized {
        shared.refused.fetch_add(1, Ordering::Relaxed);
        return Response::builder()
            .status(StatusCode::UNAUTHORIZED)
            .header(header::WWW_AUTHENTICATE, "Basic realm=\"skills\"")
            .body(Body::empty())
            .unwrap();
    }
    if shared.dot_git_only && !uri.path().contains(".git/") {
        return Response::builder()
            .status(StatusCode::NOT_FOUND)
            .body(Body::empty())
            .unwrap();
    }
    let root = shared.root.clone();
    let output = tokio::task::spawn_blocking(move || {
        use std::io::Write as _;
        let mut child = std::process::Command::new("git")
            .arg("http-backend")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GIT_PROJECT_ROOT", &root)
            .env("GIT_HTTP_EXPORT_ALL", "1")
            .env("REQUEST_METHOD", method.as_str())
            .env("PATH_INFO", uri.path())
            .env("QUERY_STRING", uri.query().unwrap_or(""))
            .env(
                "CONTENT_TYPE",
                headers
                    .get(header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or(""),
            )
            .env("CONTENT_LENGTH", body.len().to_string())
            .env("REMOTE_USER", "skills")
            .env("REMOTE_ADDR", "127.0.0.1")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&body).unwrap();
        child.wait_with_output().unwrap().stdout
    })
    .await
    .unwrap();
    let split = output
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i, 4))
        .or_else(|| output.windows(2).position(|w| w == b"\n\n").map(|i| (i, 2)))
        .expect("CGI headers end");
    let head = String::from_utf8_lossy(&output[..split.0]).into_owned();
    let mut response = Response::builder();
    for line in head.lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if name.eq_ignore_ascii_case("status") {
            let code: u16 = value.trim()[..3].parse().unwrap();
            response = response.status(code);
        } else {
            response = response.header(name.trim(), value.trim());
        }
    }
    response
        .body(Body::from(output[split.0 + split.1..].to_vec()))
        .unwrap()
}

/// A bare repository `skills.git` under `root` holding one skill, in two
/// commits; returns the first.
pub(crate) fn private_repository(ctx: &TestContext, root: &Path) -> String {
    let work = ctx.root().join("private-work");
    write_skill(
        &work.join("skills"),
        "secret-sauce",
        "---\nname: secret-sauce\ndescription: The team's own. Use when cooking.\n---\nCook.\n",
    );
    git(&work, &["init", "-q", "-b", "main"]);
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "sauce"]);
    let first = git(&work, &["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(
        work.join("NOTES.md"),
        "History a shallow fetch leaves out.\n",
    )
    .unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "notes"]);
    std::fs::create_dir_all(root).unwrap();
    git(
        root,
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            "skills.git",
        ],
    );
    first
}

#[test]
fn a_private_repository_installs_through_the_users_credential_helper() {
    let ctx = TestContext::new();
    let served = ctx.root().join("served");
    let first = private_repository(&ctx, &served);
    let server = GitHttpServer::start(&served, "alice", "s3cret-token");
    let url = server.url("skills.git");
    let app = new_project(&ctx, None);

    // Without credentials: a clear error that says how git provides them.
    let out = ctx.fails_in(&app, &["add", "--git", &url]);
    let shown = ctx
        .redact(&out.stderr)
        .replace(&server.addr.to_string(), "[SERVER]");
    insta::assert_snapshot!(shown, @"
    error: could not get http://[SERVER]/skills.git
      Caused by: http://[SERVER]/skills.git asks for credentials, and none it accepts were found
      Caused by: could not fetch http://[SERVER]/skills.git
      Caused by: failed to acquire username/password from local configuration
    hint: if it is a public repository, it may not exist: hosts such as GitHub ask for credentials for a repository they do not have; check the owner and the repository's name in http://[SERVER]/skills.git
    hint: for https, store them with git's credential helper (`git config --global credential.helper store`, then `git ls-remote <url>` once), as git itself would use them
    hint: for ssh (git@host:owner/repo), load your key into ssh-agent (`ssh-add`)
    ");

    // The user's git configuration names a credential helper.
    let store = ctx.root().join("git-credentials");
    std::fs::write(
        ctx.root().join("home/.gitconfig"),
        format!(
            "[credential]\n\thelper = store --file={}\n",
            store.display()
        ),
    )
    .unwrap();
    // A wrong password is refused in a few tries, not retried forever.
    std::fs::write(&store, format!("http://alice:wrong@{}\n", server.addr)).unwrap();
    let refused_before = server.shared.refused.load(Ordering::Relaxed);
    let out = ctx.fails_in(&app, &["add", "--git", &url]);
    assert!(
        out.stderr.contains("asks for credentials"),
        "{}",
        out.stderr
    );
    assert!(server.shared.refused.load(Ordering::Relaxed) - refused_before < 10);

    std::fs::write(
        &store,
        format!("http://alice:s3cret-token@{}\n", server.addr),
    )
    .unwrap();
    let out = ctx.ok_in(&app, &["add", "--git", &url]);
    assert!(
        ctx.redact(&out.stderr)
            .contains("Installed secret-sauce [SHORT]"),
        "{}",
        out.stderr
    );
    for file in ["skills.toml", "skills.lock"] {
        let text = std::fs::read_to_string(app.join(file)).unwrap();
        assert!(
            !text.contains("s3cret"),
            "{file} holds the password: {text}"
        );
    }
    // The server allows a shallow fetch: only the newest commit came.
    for db in std::fs::read_dir(ctx.root().join("cache/git-db")).unwrap() {
        let db = db.unwrap().path();
        if db.is_dir() {
            assert!(db.join("shallow").is_file(), "the fetch was not shallow");
            let older = std::process::Command::new("git")
                .args(["-C", db.to_str().unwrap(), "cat-file", "-e", &first])
                .status()
                .unwrap();
            assert!(!older.success(), "the older commit was fetched too");
        }
    }
    // An older commit, asked for by id, deepens the cached copy.
    let other = ctx.root().join("other");
    ctx.ok(&["init", other.to_str().unwrap()]);
    ctx.ok_in(&other, &["add", "--git", &url, "--rev", &first]);
    let lock = std::fs::read_to_string(other.join("skills.lock")).unwrap();
    assert!(lock.contains(&format!("#{first}\"")), "{lock}");
}

/// A mistyped repository: where the server says it is not there (404),
/// that is said; where it asks for credentials instead (as GitHub does
/// for a repository it does not have), checking the name comes first.
#[test]
fn a_mistyped_repository_says_it_is_not_there_and_to_check_the_name() {
    let ctx = TestContext::new();
    let served = ctx.root().join("served");
    private_repository(&ctx, &served);
    let server = GitHttpServer::start(&served, "alice", "s3cret-token");
    let app = new_project(&ctx, None);
    let shown = |out: &crate::common::Output| {
        ctx.redact(&out.stderr)
            .replace(&server.addr.to_string(), "[SERVER]")
    };

    let out = ctx.fails_in(&app, &["add", "--git", &server.url("skils.git")]);
    insta::assert_snapshot!(shown(&out), @"
    error: could not get http://[SERVER]/skils.git
      Caused by: http://[SERVER]/skils.git asks for credentials, and none it accepts were found
      Caused by: could not fetch http://[SERVER]/skils.git
      Caused by: failed to acquire username/password from local configuration
    hint: if it is a public repository, it may not exist: hosts such as GitHub ask for credentials for a repository they do not have; check the owner and the repository's name in http://[SERVER]/skils.git
    hint: for https, store them with git's credential helper (`git config --global credential.helper store`, then `git ls-remote <url>` once), as git itself would use them
    hint: for ssh (git@host:owner/repo), load your key into ssh-agent (`ssh-add`)
    ");

    std::fs::write(
        ctx.root().join("home/.gitconfig"),
        format!(
            "[credential]\n\thelper = store --file={}\n",
            ctx.root().join("git-credentials").display()
        ),
    )
    .unwrap();
    std::fs::write(
        ctx.root().join("git-credentials"),
        format!("http://alice:s3cret-token@{}\n", server.addr),
    )
    .unwrap();
    let out = ctx.fails_in(&app, &["add", "--git", &server.url("skils.git")]);
    insta::assert_snapshot!(shown(&out), @"
    error: could not get http://[SERVER]/skils.git
      Caused by: there is no repository at http://[SERVER]/skils.git (the server answered 404 Not Found)
      Caused by: could not fetch http://[SERVER]/skils.git
      Caused by: unexpected http status code: 404; class=Http (34)
    hint: check the owner and the repository's name in http://[SERVER]/skils.git
    ");
}
