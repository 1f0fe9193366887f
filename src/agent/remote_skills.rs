//! Skills an MCP server serves (`exec --mcp-skills`), as the agent holds
//! them: their origin, the digest of every file their server listed, and
//! whether the user approved them. Their files sit in skillpkg's private
//! store, already checked once; every read checks the file again against
//! its digest, and a file the server did not list is never read (SEP-2640's
//! host rules).

use std::collections::BTreeMap;
use std::path::Path;

/// One MCP-served skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// `mcp:<server>`.
    pub origin: String,
    /// Its files by `/`-separated path relative to the skill, each with
    /// the `sha256:<hex>` digest its server listed.
    pub files: BTreeMap<String, String>,
    /// Whether the user approved it for its current digest set: only
    /// then do its scripts run (its grants are in the run's grants too).
    pub approved: bool,
}

impl Served {
    /// The listed path `relative` names (`./` and doubled slashes
    /// dropped), or why it names none.
    pub fn listed(&self, relative: &str) -> Result<String, String> {
        let segments: Vec<&str> = relative
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        let path = segments.join("/");
        if segments.contains(&"..") || !self.files.contains_key(&path) {
            return Err(format!(
                "{relative} is not among the files {} listed for this skill; an unlisted file is never read",
                self.origin
            ));
        }
        Ok(path)
    }

    /// Checks the file `relative` of the skill in `dir`: listed, and its
    /// bytes matching the listed digest.
    pub fn check(&self, dir: &Path, relative: &str) -> Result<(), String> {
        let path = self.listed(relative)?;
        let digest = &self.files[&path];
        match crate::store::hash::sha256_file_digest(&dir.join(&path)) {
            Ok(now) if *digest == now => Ok(()),
            Ok(now) => Err(format!(
                "{path} no longer matches the digest {} listed ({digest}); its copy has {now}",
                self.origin
            )),
            Err(e) => Err(format!("{path} cannot be read to check its digest: {e}")),
        }
    }

    /// Checks every listed file (before one of its scripts runs, since a
    /// script may read the others).
    pub fn check_all(&self, dir: &Path) -> Result<(), String> {
        self.files.keys().try_for_each(|path| self.check(dir, path))
    }

    /// Its files other than `SKILL.md`, sorted.
    pub fn resources(&self) -> Vec<String> {
        self.files
            .keys()
            .filter(|p| p.as_str() != "SKILL.md")
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(dir: &Path) -> Served {
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("SKILL.md"), "---\nname: a\n---\n").unwrap();
        std::fs::write(dir.join("scripts/x.sh"), "echo x\n").unwrap();
        let digest = |p: &str| {
            format!(
                "sha256:{}",
                crate::store::hash::sha256_file(&dir.join(p)).unwrap()
            )
        };
        Served {
            origin: "mcp:stand-in".into(),
            files: ["SKILL.md", "scripts/x.sh"]
                .into_iter()
                .map(|p| (p.to_string(), digest(p)))
                .collect(),
            approved: false,
        }
    }

    #[test]
    fn a_listed_file_is_read_while_it_matches_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let served = served(dir.path());
        assert_eq!(served.check(dir.path(), "./scripts//x.sh"), Ok(()));
        assert_eq!(served.check_all(dir.path()), Ok(()));
        std::fs::write(dir.path().join("scripts/x.sh"), "echo y\n").unwrap();
        let reason = served.check(dir.path(), "scripts/x.sh").unwrap_err();
        assert!(
            reason.contains("no longer matches the digest mcp:stand-in listed"),
            "{reason}"
        );
        assert!(served.check_all(dir.path()).is_err());
    }

    #[test]
    fn an_unlisted_file_is_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let served = served(dir.path());
        std::fs::write(dir.path().join("extra.md"), "planted\n").unwrap();
        for path in ["extra.md", "scripts/../SKILL.md", "../a/SKILL.md"] {
            let reason = served.check(dir.path(), path).unwrap_err();
            assert!(
                reason.contains("not among the files mcp:stand-in listed"),
                "{reason}"
            );
        }
        assert_eq!(served.resources(), ["scripts/x.sh"]);
    }
}
