//! The credential stores a home directory holds, by their place in it:
//! one list, which the sandbox hides from every command
//! (`sandbox/stores.rs`) and the scanner follows as data to a network sink
//! (`scan/exfil.rs`). docs/sandbox.md lists them for users.

/// Credential stores by their place in the home directory: files, or
/// folders that hold nothing but credentials.
pub(crate) const IN_HOME: [&str; 49] = [
    ".ssh",
    ".gnupg",
    ".password-store",
    ".aws/credentials",
    ".aws/config",
    ".aws/sso/cache",
    ".aws/cli/cache",
    ".azure",
    ".kube",
    ".netrc",
    ".git-credentials",
    ".docker/config.json",
    ".npmrc",
    ".yarnrc.yml",
    ".pypirc",
    ".gem/credentials",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".m2/settings.xml",
    ".m2/settings-security.xml",
    ".gradle/gradle.properties",
    ".nuget/NuGet/NuGet.Config",
    ".composer/auth.json",
    ".terraform.d/credentials.tfrc.json",
    ".terraformrc",
    ".vault-token",
    ".pulumi/credentials.json",
    ".s3cfg",
    ".boto",
    ".databrickscfg",
    ".snowflake/connections.toml",
    ".oci/config",
    ".claude/.credentials.json",
    ".claude.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".cache/huggingface/token",
    ".huggingface/token",
    ".config/gh",
    ".config/hub",
    ".config/glab-cli",
    ".config/gcloud",
    ".config/git/credentials",
    ".config/rclone/rclone.conf",
    ".config/containers/auth.json",
    ".config/helm/registry/config.json",
    ".config/doctl/config.yaml",
    ".config/op",
    ".config/hcloud/cli.toml",
];

/// Credential stores in the user's configuration folder
/// (`$XDG_CONFIG_HOME`, else `~/.config`).
pub(crate) const IN_CONFIG: [&str; 11] = [
    "gh",
    "hub",
    "glab-cli",
    "gcloud",
    "git/credentials",
    "rclone/rclone.conf",
    "containers/auth.json",
    "helm/registry/config.json",
    "doctl/config.yaml",
    "op",
    "hcloud/cli.toml",
];
