//! Choosing a model (`--model`, `SKILLPKG_MODEL`, `[agent] model`, or
//! whichever API key is present) and opening it.

use std::path::Path;
use std::time::Duration;

use anyhow::bail;

use super::{Model, anthropic, http, openai, scripted};
use crate::credentials::Credentials;
use crate::env_vars;
use crate::hint::Hinted;

/// The model used when `ANTHROPIC_API_KEY` is set and nothing else is configured.
pub(crate) const DEFAULT_ANTHROPIC_MODEL: &str = "anthropic:claude-sonnet-4-5";
/// The model used when `OPENAI_API_KEY` is set and nothing else is configured.
pub(crate) const DEFAULT_OPENAI_MODEL: &str = "openai:gpt-4o";

/// The model to use: `--model`, else `SKILLPKG_MODEL`, else `[agent] model`
/// of skills.toml, else whichever API key the environment (or the
/// credentials file) holds.
pub fn choose_model(
    flag: Option<&str>,
    manifest: Option<&str>,
    credentials: &Credentials,
) -> anyhow::Result<String> {
    let env = env_vars::non_blank;
    if let Some(spec) = flag
        .map(str::to_string)
        .or_else(|| env(env_vars::SKILLPKG_MODEL))
        .or_else(|| manifest.map(str::to_string))
    {
        return Ok(spec);
    }
    if credentials.get(env_vars::ANTHROPIC_API_KEY)?.is_some() {
        return Ok(DEFAULT_ANTHROPIC_MODEL.into());
    }
    if credentials.get(env_vars::OPENAI_API_KEY)?.is_some() {
        return Ok(DEFAULT_OPENAI_MODEL.into());
    }
    bail!(Hinted::new("no model is configured").hint("pass --model anthropic:<model>, openai:<model> or scripted:<file>").hint("or set SKILLPKG_MODEL, or `[agent] model = \"…\"` in the skills.toml of a project you trust").hint(format!("or export ANTHROPIC_API_KEY or OPENAI_API_KEY (or put it in credentials.toml in the config directory) to use {DEFAULT_ANTHROPIC_MODEL} or {DEFAULT_OPENAI_MODEL}")))
}

/// How a model is reached.
#[derive(Debug, Clone, Default)]
pub struct Connection<'a> {
    /// `--base-url`: another server speaking the same API.
    pub base_url: Option<&'a str>,
    /// Stream the answer as it is written.
    pub stream: bool,
    /// Where API keys come from.
    pub credentials: Credentials,
}

/// How long a model request may wait for the next bytes.
const MODEL_READ_TIMEOUT: Duration = Duration::from_secs(300);

/// Opens the model `spec` names. API keys come from the environment; the
/// default servers need one, other servers (`--base-url`) may not.
pub fn open_model(
    spec: &str,
    cwd: &Path,
    connection: &Connection,
) -> anyhow::Result<Box<dyn Model>> {
    let env = env_vars::non_blank;
    let base_url = |var: &str, default: &str| {
        connection
            .base_url
            .map(str::to_string)
            .or_else(|| env(var))
            .unwrap_or_else(|| default.to_string())
    };
    let key = |var: &str, base: &str, default: &str| -> anyhow::Result<Option<String>> {
        match connection.credentials.get(var)? {
            Some(key) => Ok(Some(key)),
            None if base == default => bail!(
                Hinted::new(format!("{spec} needs an API key and {var} is not set")).hint(format!(
                    "export {var}=…, or point --base-url at a server that needs none"
                ))
            ),
            None => Ok(None),
        }
    };
    match spec.split_once(':') {
        Some(("scripted", file)) => Ok(Box::new(scripted::Scripted::load(&cwd.join(file))?)),
        Some(("anthropic", model)) if !model.is_empty() => {
            let base = base_url(env_vars::ANTHROPIC_BASE_URL, anthropic::DEFAULT_BASE_URL);
            let key = key(
                env_vars::ANTHROPIC_API_KEY,
                &base,
                anthropic::DEFAULT_BASE_URL,
            )?;
            Ok(Box::new(anthropic::Anthropic(http::Endpoint::new(
                model,
                &base,
                key,
                connection.stream,
                http::Client::new(MODEL_READ_TIMEOUT)?,
            ))))
        }
        Some(("openai", model)) if !model.is_empty() => {
            let base = base_url(env_vars::OPENAI_BASE_URL, openai::DEFAULT_BASE_URL);
            let key = key(env_vars::OPENAI_API_KEY, &base, openai::DEFAULT_BASE_URL)?;
            Ok(Box::new(openai::OpenAi(http::Endpoint::new(
                model,
                &base,
                key,
                connection.stream,
                http::Client::new(MODEL_READ_TIMEOUT)?,
            ))))
        }
        _ => {
            let error = Hinted::new(format!("unknown model '{spec}'"));
            let error = match meant_model(spec, cwd) {
                Some(meant) => error.hint(format!("did you mean `--model {meant}`?")),
                None => error,
            };
            bail!(
                error
                    .hint("models are anthropic:<model>, openai:<model> or scripted:<file>")
                    .hint("a model on an OpenAI-compatible server (Ollama, vLLM, llama.cpp) is openai:<model> with --base-url URL")
            )
        }
    }
}

/// The model spec that `spec`, which names none, most likely meant: a
/// known model's name without its provider (`gpt-4o`), a misspelt
/// provider (`antropic:claude-sonnet-4-5`), a model script's file.
fn meant_model(spec: &str, cwd: &Path) -> Option<String> {
    const PROVIDERS: [&str; 3] = ["anthropic", "openai", "scripted"];
    if let Some(provider) = super::windows::provider_of(spec) {
        return Some(format!("{provider}:{spec}"));
    }
    if let Some((provider, model)) = spec.split_once(':')
        && !model.is_empty()
        && let Some(meant) = crate::hint::did_you_mean(provider, PROVIDERS)
    {
        return Some(format!("{meant}:{model}"));
    }
    let file = cwd.join(spec);
    (spec.ends_with(".json") && file.is_file()).then(|| format!("scripted:{spec}"))
}

/// The model a run would use (see [`choose_model`]) and its context
/// window, without opening it: what `exec --dry-run` and `prompt --task`
/// size the catalog by. `None`s when no model is configured.
pub(crate) fn planned_model(
    flag: Option<&str>,
    manifest: Option<&str>,
    credentials: &Credentials,
    cwd: &Path,
) -> (Option<String>, Option<usize>) {
    let spec = choose_model(flag, manifest, credentials).ok();
    let window = spec
        .as_deref()
        .and_then(|spec| context_window_of(spec, cwd));
    (spec, window)
}

/// The context window of the model `spec` names, without opening a
/// connection: from the table of known models, or a scripted model's file.
pub(crate) fn context_window_of(spec: &str, cwd: &Path) -> Option<usize> {
    let (provider, model) = spec.split_once(':')?;
    match provider {
        "scripted" => super::scripted::Scripted::load(&cwd.join(model))
            .ok()?
            .context_window(),
        provider => super::windows::context_window(provider, model),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_without_its_provider_or_misspelt_gets_the_form_meant() {
        let cwd = tempfile::tempdir().unwrap();
        std::fs::write(cwd.path().join("turns.json"), "[]").unwrap();
        let meant = |spec: &str| meant_model(spec, cwd.path());
        assert_eq!(meant("gpt-4o").as_deref(), Some("openai:gpt-4o"));
        assert_eq!(meant("gpt-4o-mini").as_deref(), Some("openai:gpt-4o-mini"));
        assert_eq!(
            meant("claude-sonnet-4-5").as_deref(),
            Some("anthropic:claude-sonnet-4-5")
        );
        assert_eq!(meant("o3").as_deref(), Some("openai:o3"));
        assert_eq!(
            meant("antropic:claude-opus-4").as_deref(),
            Some("anthropic:claude-opus-4")
        );
        assert_eq!(meant("turns.json").as_deref(), Some("scripted:turns.json"));
        assert_eq!(meant("llama3.1:8b"), None);
        assert_eq!(meant("mistral"), None);
    }
}
