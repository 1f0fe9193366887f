//! Keys of `skills.toml` that skillpkg does not know: a misspelt table
//! (`[instal]`) or key is ignored by the parser, so it is reported, as
//! cargo reports unused manifest keys, naming the closest known one.

/// The tables `skills.toml` may have, and the keys each may hold (`None`:
/// any key, checked by the table's own parser).
const KNOWN: &[(&str, Option<&[&str]>)] = &[
    ("skills", None),
    ("registries", None),
    ("signers", None),
    ("install", Some(&["root", "targets"])),
    (
        "agent",
        Some(&[
            "model",
            "tools",
            "sandbox",
            "network",
            "context_window",
            "env",
            "sandbox_read",
        ]),
    ),
];

/// The keys of each `[registries]` entry.
const REGISTRY_KEYS: &[&str] = &["index"];

/// A key skillpkg ignores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownKey {
    /// Its dotted path (`instal`, `agent.modle`).
    pub path: String,
    /// The known key it is closest to, at the same place.
    pub closest: Option<String>,
}

/// The keys of the manifest `text` that skillpkg ignores; none when it
/// does not parse (the parser's error says why).
pub(crate) fn unknown_keys(text: &str) -> Vec<UnknownKey> {
    let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    let mut unknown = Vec::new();
    let tables = KNOWN.iter().map(|(name, _)| *name);
    for (key, item) in doc.iter() {
        let Some((_, keys)) = KNOWN.iter().find(|(name, _)| *name == key) else {
            unknown.push(UnknownKey {
                path: key.to_string(),
                closest: closest(key, tables.clone()),
            });
            continue;
        };
        let Some(table) = item.as_table_like() else {
            continue;
        };
        let check = |prefix: &str,
                     table: &dyn toml_edit::TableLike,
                     keys: &[&str],
                     found: &mut Vec<UnknownKey>| {
            for (inner, _) in table.iter() {
                if !keys.contains(&inner) {
                    found.push(UnknownKey {
                        path: format!("{prefix}.{inner}"),
                        closest: closest(inner, keys.iter().copied()),
                    });
                }
            }
        };
        match (key, keys) {
            (_, Some(keys)) => check(key, table, keys, &mut unknown),
            ("registries", None) => {
                for (name, registry) in table.iter() {
                    if let Some(registry) = registry.as_table_like() {
                        check(
                            &format!("registries.{name}"),
                            registry,
                            REGISTRY_KEYS,
                            &mut unknown,
                        );
                    }
                }
            }
            _ => {}
        }
    }
    unknown
}

/// The candidate closest to `word`, when one is close enough.
fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    crate::hint::did_you_mean(word, candidates).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_the_manifest_reads_is_known() {
        let text = super::super::tests::EVERY_KEY;
        let parsed =
            super::super::Manifest::parse(text, std::path::Path::new("skills.toml")).unwrap();
        assert_eq!(parsed.agent.context_window, Some(200000));
        assert_eq!(parsed.agent.env, ["LANG"]);
        assert_eq!(unknown_keys(text), []);
    }

    #[test]
    fn misspelt_tables_and_keys_are_found_with_the_closest_known_one() {
        let text = "[instal]\ntargets = []\n[install]\nroots = \"x\"\n[agent]\nmodle = \"m\"\n[registries]\nx = { indx = \"i\" }\n[zzz]\n";
        let found: Vec<(String, Option<String>)> = unknown_keys(text)
            .into_iter()
            .map(|k| (k.path, k.closest))
            .collect();
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            found,
            [
                ("instal".to_string(), some("install")),
                ("install.roots".to_string(), some("root")),
                ("agent.modle".to_string(), some("model")),
                ("registries.x.indx".to_string(), some("index")),
                ("zzz".to_string(), None),
            ]
        );
    }
}
