//! The user's record of consent: `trust.toml` in the config directory,
//! private to the user. It holds the projects the user trusts (by
//! canonical path, with a hash of the settings trusted) and the grants
//! approved for hand-written skills (by canonical folder, with the tree
//! hash of the files approved), and those approved for skills MCP servers
//! serve (by origin and name, with the digest set approved). Changes are made under a lock, so two
//! runs approving at once both land.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::dirs::Dirs;
use crate::hint::Hinted;

/// The file in the config directory that records the user's consent.
pub const TRUST_FILE: &str = "trust.toml";

/// The grants approved for one hand-written skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillApproval {
    /// `h1:` hash of the skill's files when they were approved: any change
    /// to them withdraws the approval.
    pub tree: String,
    /// The approved patterns of its `allowed-tools`.
    pub grants: Vec<String>,
}

/// The whole file.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct TrustFile {
    /// Trusted projects: canonical path → hash of the settings trusted.
    #[serde(default)]
    pub projects: BTreeMap<String, String>,
    /// Hand-written skills' approvals: canonical folder → approval.
    #[serde(default)]
    pub skills: BTreeMap<String, SkillApproval>,
    /// MCP-served skills' approvals: origin (`mcp:<server>`) → skill name
    /// → approval, whose `tree` is the digest set approved.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mcp_skills: BTreeMap<String, BTreeMap<String, SkillApproval>>,
}

fn path(dirs: &Dirs) -> PathBuf {
    dirs.config.join(TRUST_FILE)
}

impl TrustFile {
    /// Reads the file; a missing one is empty.
    pub fn load(dirs: &Dirs) -> anyhow::Result<TrustFile> {
        let path = path(dirs);
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| {
                anyhow::anyhow!(
                    Hinted::new(format!(
                        "{}: not a record of trusted projects and approved grants: {}",
                        path.display(),
                        e.to_string().trim()
                    ))
                    .hint("delete it; skillpkg then asks again before it trusts a project or a skill's grants")
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TrustFile::default()),
            Err(e) => Err(e).with_context(|| format!("could not read {}", path.display())),
        }
    }

    /// Changes the file under a lock: reads it, applies `change`, writes it
    /// back atomically, private to the user. Returns what `change` returned.
    pub fn update<T>(dirs: &Dirs, change: impl FnOnce(&mut TrustFile) -> T) -> anyhow::Result<T> {
        let path = path(dirs);
        let _lock = crate::fsutil::lock_exclusive(&dirs.config.join(".trust.lock"))
            .with_context(|| format!("could not lock {}", path.display()))?;
        let mut file = TrustFile::load(dirs)?;
        let result = change(&mut file);
        let text = toml::to_string(&file).expect("the trust file serialises");
        crate::fsutil::write_private(&path, text.as_bytes())
            .with_context(|| format!("could not write {}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
        Ok(result)
    }
}
