//! Every environment variable skillpkg reads, named in one place.

/// Overrides the config directory.
pub(crate) const SKILLPKG_CONFIG_DIR: &str = "SKILLPKG_CONFIG_DIR";
/// Overrides the cache directory (downloads, the materialised builtin skills).
pub const SKILLPKG_CACHE_DIR: &str = "SKILLPKG_CACHE_DIR";
/// Overrides the data directory (the global manifest and lock).
pub(crate) const SKILLPKG_DATA_DIR: &str = "SKILLPKG_DATA_DIR";
/// Overrides the user skill root (default `~/.agents/skills`).
pub(crate) const SKILLPKG_USER_ROOT: &str = "SKILLPKG_USER_ROOT";
/// The user's config directory (default `~/.config`): where some agents
/// read their user skills.
pub const XDG_CONFIG_HOME: &str = "XDG_CONFIG_HOME";
/// The user's state directory: when set, `npx skills` keeps the lock of
/// the user's skills in `$XDG_STATE_HOME/skills/.skill-lock.json`, and
/// `import --global` reads it there.
pub const XDG_STATE_HOME: &str = "XDG_STATE_HOME";
/// The folder of the container tools' `config.json` (default
/// `~/.docker`), where OCI registries' credentials are read: `auths`,
/// `credHelpers` and `credsStore`, as docker and podman read them.
pub const DOCKER_CONFIG: &str = "DOCKER_CONFIG";
/// Any value turns coloured output off (<https://no-color.org>).
pub(crate) const NO_COLOR: &str = "NO_COLOR";
/// The password of an encrypted minisign secret key (for `publish`, `keygen`).
pub(crate) const SKILLPKG_KEY_PASSWORD: &str = "SKILLPKG_KEY_PASSWORD";
/// Seconds an HTTP request may wait for the next bytes before it is retried
/// (default 30).
pub(crate) const SKILLPKG_HTTP_TIMEOUT: &str = "SKILLPKG_HTTP_TIMEOUT";
/// Seconds one index request may take in all, reading included (default
/// 300): a server that trickles bytes is abandoned after it.
pub const SKILLPKG_HTTP_DEADLINE: &str = "SKILLPKG_HTTP_DEADLINE";
/// How many times a failed HTTP request that may pass is tried again
/// (default 3), for indexes and model APIs alike.
pub(crate) const SKILLPKG_HTTP_RETRIES: &str = "SKILLPKG_HTTP_RETRIES";
/// Seconds before the first retry of an HTTP request (default 0.2 for
/// indexes, 0.5 for model APIs); each later retry waits twice as long.
pub(crate) const SKILLPKG_HTTP_RETRY_DELAY: &str = "SKILLPKG_HTTP_RETRY_DELAY";
/// Seconds a publish or yank to a git index may keep retrying pushes
/// that others beat to it (default 60).
pub(crate) const SKILLPKG_PUBLISH_TIMEOUT: &str = "SKILLPKG_PUBLISH_TIMEOUT";
/// Seconds one model turn may take in all (default 600): a server that
/// only sends keepalives is abandoned after it.
pub(crate) const SKILLPKG_MODEL_DEADLINE: &str = "SKILLPKG_MODEL_DEADLINE";
/// The model `exec` uses when `--model` is not given.
pub(crate) const SKILLPKG_MODEL: &str = "SKILLPKG_MODEL";
/// An Anthropic API key: `exec` picks an Anthropic model when it is set.
pub const ANTHROPIC_API_KEY: &str = "ANTHROPIC_API_KEY";
/// An OpenAI API key: `exec` picks an OpenAI model when it is set.
pub(crate) const OPENAI_API_KEY: &str = "OPENAI_API_KEY";
/// Another server for `anthropic:` models (a proxy, a gateway, a mock).
pub(crate) const ANTHROPIC_BASE_URL: &str = "ANTHROPIC_BASE_URL";
/// `copy` (clones where the file system can) or `hardlink`: the default
/// of `--link-mode` for the commands that install.
pub(crate) const SKILLPKG_LINK_MODE: &str = "SKILLPKG_LINK_MODE";
/// Another server for `openai:` models (Ollama, vLLM, llama.cpp, a mock).
pub(crate) const OPENAI_BASE_URL: &str = "OPENAI_BASE_URL";
/// Any value makes the CLI report each progress event as a line on stderr
/// and wait for a line on stdin before going on; it exists for tests that
/// kill a run at a chosen step.
pub const SKILLPKG_PROGRESS_PAUSE: &str = "SKILLPKG_PROGRESS_PAUSE";
/// The sandbox mode `exec` and `eval` use without `--sandbox`, before a
/// trusted project's `[agent] sandbox` (`off` where there is no sandbox,
/// as the user's standing choice).
pub(crate) const SKILLPKG_SANDBOX: &str = "SKILLPKG_SANDBOX";
/// A test hook: any value makes the script sandbox unavailable, as on a
/// machine without Landlock or user namespaces, to test the warning and
/// `--require-sandbox`.
pub(crate) const SKILLPKG_SANDBOX_UNAVAILABLE: &str = "SKILLPKG_SANDBOX_UNAVAILABLE";

/// Seconds since the epoch that documents recording when they were made
/// (`sbom`) record instead of now, for reproducible output
/// (<https://reproducible-builds.org/specs/source-date-epoch/>).
pub const SOURCE_DATE_EPOCH: &str = "SOURCE_DATE_EPOCH";

/// The value of the variable `name`, unless it is unset, not Unicode, or
/// blank: an empty or all-space variable counts as unset, as a shell's
/// `export KEY=` is meant.
pub(crate) fn non_blank(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The bearer token `serve --mcp --http` requires (default: one it
/// generates and prints).
pub const SKILLPKG_MCP_TOKEN: &str = "SKILLPKG_MCP_TOKEN";
