//! The builtin root: the repo's `skills/`, embedded in the binary and
//! materialised under the cache directory on first use, so that its
//! scripts have real paths an agent can run.

use std::path::{Path, PathBuf};

use crate::embedded::{BUILTIN_SKILLS, materialize};

/// Returns the materialised builtin root under `cache`, writing it first if needed.
pub(crate) fn materialize_builtin(cache: &Path) -> std::io::Result<PathBuf> {
    materialize(BUILTIN_SKILLS, &cache.join("builtin"))
}
