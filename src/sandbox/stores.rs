//! What a sandboxed command sees of the user's files. Its home directory
//! is fresh and empty, so every secret kept there is out of reach by
//! design; only the toolchain folders scripts need come back, read-only.
//! Credential *files* are still hidden by name — where a toolchain folder
//! that comes back, a folder the user adds with `--read`, or a tool's own
//! variable (`DOCKER_CONFIG=/srv/docker`) puts them outside the home — so
//! that adding a folder never adds the secrets in it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::credential_stores::{IN_CONFIG, IN_HOME};

/// Folders of the home directory that come back read-only, where they
/// exist: where installers put the programs scripts run.
pub(crate) const TOOLCHAINS: [&str; 16] = [
    ".local/bin",
    ".local/lib",
    ".local/share/pipx",
    ".local/share/uv",
    ".local/share/mise",
    ".cargo/bin",
    ".rustup",
    ".nvm",
    ".volta",
    ".pyenv",
    ".rbenv",
    ".asdf",
    ".sdkman",
    ".bun/bin",
    ".deno/bin",
    "go/bin",
];

/// Variables that name a credential store themselves (a file, or a
/// folder of credentials only), colon-separated lists included.
const NAMING_A_STORE: [&str; 17] = [
    "KUBECONFIG",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_CONFIG_FILE",
    "CLOUDSDK_CONFIG",
    "AZURE_CONFIG_DIR",
    "NPM_CONFIG_USERCONFIG",
    "GNUPGHOME",
    "PASSWORD_STORE_DIR",
    "GH_CONFIG_DIR",
    "GLAB_CONFIG_DIR",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "NETRC",
    "REGISTRY_AUTH_FILE",
    "HELM_REGISTRY_CONFIG",
    "DATABRICKS_CONFIG_FILE",
    "TF_CLI_CONFIG_FILE",
    "RCLONE_CONFIG",
];

/// Variables that name a folder holding a toolchain and credentials: only
/// the credential files in it are stores.
const IN_A_FOLDER: [(&str, &[&str]); 11] = [
    ("CARGO_HOME", &["credentials", "credentials.toml"]),
    ("DOCKER_CONFIG", &["config.json"]),
    ("CLAUDE_CONFIG_DIR", &[".credentials.json"]),
    ("CODEX_HOME", &["auth.json"]),
    ("HF_HOME", &["token"]),
    ("COMPOSER_HOME", &["auth.json"]),
    ("GRADLE_USER_HOME", &["gradle.properties"]),
    ("PULUMI_HOME", &["credentials.json"]),
    ("SNOWFLAKE_HOME", &["connections.toml"]),
    ("XDG_RUNTIME_DIR", &["containers/auth.json"]),
    ("GEM_HOME", &["credentials"]),
];

/// The credential stores a command may not read: those of `home`, of the
/// configuration folder, and wherever `var` (the environment) points.
pub(crate) fn credential_stores(
    home: Option<&Path>,
    var: impl Fn(&str) -> Option<OsString>,
) -> Vec<PathBuf> {
    let set = |name: &str| {
        var(name)
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
    };
    let mut stores = Vec::new();
    if let Some(home) = home {
        stores.extend(IN_HOME.iter().map(|store| home.join(store)));
    }
    if let Some(config) = set("XDG_CONFIG_HOME") {
        stores.extend(IN_CONFIG.iter().map(|store| config.join(store)));
    }
    for name in NAMING_A_STORE {
        if let Some(value) = var(name) {
            stores.extend(std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty()));
        }
    }
    for (name, files) in IN_A_FOLDER {
        if let Some(folder) = set(name) {
            stores.extend(files.iter().map(|file| folder.join(file)));
        }
    }
    if let Some(socket) = set("SSH_AUTH_SOCK") {
        stores.push(socket);
    }
    stores
}

/// The toolchain folders of `home` that exist, canonical.
pub(crate) fn toolchains(home: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    TOOLCHAINS
        .iter()
        .filter_map(move |folder| std::fs::canonicalize(home.join(folder)).ok())
}

/// The home folder of account `uid` in `passwd` (`/etc/passwd`'s text).
#[cfg(any(unix, test))]
pub(crate) fn home_of(passwd: &str, uid: u32) -> Option<PathBuf> {
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() >= 7 && fields[2].parse() == Ok(uid) && !fields[5].is_empty())
            .then(|| PathBuf::from(fields[5]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_follow_their_tools_variables_but_never_take_a_toolchain_folder() {
        let home = Path::new("/h");
        let vars = |name: &str| -> Option<OsString> {
            match name {
                "KUBECONFIG" => Some("/k/a:/k/b".into()),
                "CARGO_HOME" => Some("/usr/local/cargo".into()),
                "DOCKER_CONFIG" => Some("/srv/docker".into()),
                "XDG_CONFIG_HOME" => Some("/cfg".into()),
                "GNUPGHOME" => Some("".into()),
                _ => None,
            }
        };
        let stores = credential_stores(Some(home), vars);
        for expected in [
            "/h/.ssh",
            "/h/.config/gh",
            "/cfg/gh",
            "/cfg/git/credentials",
            "/k/a",
            "/k/b",
            "/usr/local/cargo/credentials.toml",
            "/srv/docker/config.json",
        ] {
            assert!(stores.contains(&PathBuf::from(expected)), "{expected}");
        }
        assert!(!stores.contains(&PathBuf::from("/usr/local/cargo")));
        assert!(!stores.iter().any(|s| s.as_os_str().is_empty()));
        assert!(stores.len() >= 30, "{}", stores.len());
    }

    #[test]
    fn the_accounts_home_comes_from_passwd() {
        let passwd = "root:x:0:0:root:/root:/bin/bash\nme:x:1000:1000::/home/me:/bin/sh\n";
        assert_eq!(home_of(passwd, 1000), Some(PathBuf::from("/home/me")));
        assert_eq!(home_of(passwd, 0), Some(PathBuf::from("/root")));
        assert_eq!(home_of(passwd, 7), None);
    }
}
