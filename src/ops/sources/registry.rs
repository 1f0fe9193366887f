//! Registry indexes: a package resolved by version against its index
//! (`registry+<index>` in the lock). The resolver (`ops::install::plan`)
//! chooses its pin among the versions the index lists, and the install's
//! fetch step verifies and unpacks its archive; this is how the lock's
//! pins of it are described.

use super::kind::SourceKind;
use crate::manifest::source_id::SourceId;

/// The registry kind.
pub(super) struct Registry;

impl SourceKind for Registry {
    fn name(&self) -> &'static str {
        "registry"
    }

    fn pins(&self, source: &SourceId) -> bool {
        matches!(source, SourceId::Registry { .. })
    }

    fn place(&self, source: &SourceId) -> Option<String> {
        source.registry_index().map(str::to_string)
    }

    fn owner(&self, source: &SourceId) -> Option<String> {
        Some(format!("the index {}", source.registry_index()?))
    }

    /// An index served from a URL; the builtin index and a named one have
    /// no URL of their own in the lock.
    fn reference(&self, source: &SourceId) -> Option<(String, &'static str)> {
        let index = source.registry_index()?;
        index
            .contains("://")
            .then(|| (index.to_string(), "distribution"))
    }

    /// The version alone, for a package of the builtin index.
    fn at(&self, version: &str, source: &SourceId) -> String {
        match source.registry_index() {
            Some(crate::index::source::BUILTIN_REGISTRY) => version.to_string(),
            _ => format!("{version} ({source})"),
        }
    }
}
