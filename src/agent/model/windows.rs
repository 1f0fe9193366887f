//! The context windows of known models, in tokens, by the name the API
//! takes (dates and suffixes as they appear in model names are allowed:
//! `claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`). The catalog's
//! budget is 2% of it; `[agent] context_window` overrides it for a model
//! this table does not know.

/// `(provider, model name prefix, tokens)`, the longest prefix winning.
const WINDOWS: &[(&str, &str, usize)] = &[
    ("anthropic", "claude-", 200_000),
    ("openai", "gpt-3.5-turbo", 16_385),
    ("openai", "gpt-4", 8_192),
    ("openai", "gpt-4-32k", 32_768),
    ("openai", "gpt-4-turbo", 128_000),
    ("openai", "gpt-4o", 128_000),
    ("openai", "gpt-4.1", 1_047_576),
    ("openai", "gpt-5", 400_000),
    ("openai", "o1", 200_000),
    ("openai", "o1-mini", 128_000),
    ("openai", "o1-preview", 128_000),
    ("openai", "o3", 200_000),
    ("openai", "o4-mini", 200_000),
];

/// The context window of `model` at `provider` (`anthropic`, `openai`),
/// when known.
pub(crate) fn context_window(provider: &str, model: &str) -> Option<usize> {
    WINDOWS
        .iter()
        .filter(|(p, prefix, _)| *p == provider && model.starts_with(prefix))
        .max_by_key(|(_, prefix, _)| prefix.len())
        .map(|(_, _, tokens)| *tokens)
}

/// The provider whose models `model` is named like (`anthropic` for
/// `claude-sonnet-4-5`, `openai` for `gpt-4o`), when the table knows it.
pub(crate) fn provider_of(model: &str) -> Option<&'static str> {
    WINDOWS
        .iter()
        .filter(|(_, prefix, _)| model.starts_with(prefix))
        .max_by_key(|(_, prefix, _)| prefix.len())
        .map(|(provider, _, _)| *provider)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_families_with_dates_and_the_longest_prefix_wins() {
        assert_eq!(
            context_window("anthropic", "claude-sonnet-4-5-20250929"),
            Some(200_000)
        );
        assert_eq!(context_window("openai", "gpt-4o-2024-08-06"), Some(128_000));
        assert_eq!(context_window("openai", "gpt-4o-mini"), Some(128_000));
        assert_eq!(context_window("openai", "gpt-4.1-mini"), Some(1_047_576));
        assert_eq!(context_window("openai", "gpt-5-mini"), Some(400_000));
        assert_eq!(context_window("openai", "gpt-4-0613"), Some(8_192));
        assert_eq!(context_window("openai", "gpt-4-32k-0613"), Some(32_768));
        assert_eq!(
            context_window("openai", "gpt-4-turbo-2024-04-09"),
            Some(128_000)
        );
        assert_eq!(context_window("openai", "o1-2024-12-17"), Some(200_000));
        assert_eq!(
            context_window("openai", "o1-mini-2024-09-12"),
            Some(128_000)
        );
        assert_eq!(context_window("openai", "llama3.1:8b"), None);
        assert_eq!(context_window("anthropic", "gpt-4o"), None);
    }
}
