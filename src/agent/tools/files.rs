//! The workspace's file tools: `read_file`, `list_dir`, `grep` and
//! `write_file`, confined to the workspace and the skill directories.

use super::read::for_each_line;
use super::*;

/// Hits `grep` returns, at most.
const MAX_GREP_HITS: usize = 200;

/// Entries `list_dir` returns, at most.
const MAX_LIST: usize = 500;

/// A file as `read_file` shows it (see [`read::read_text`]).
pub(super) fn read_text(path: &Path) -> Result<ToolOutput, String> {
    let (shown, truncated) = read::read_text(path)?;
    Ok(ToolOutput {
        truncated,
        ..ToolOutput::ok(shown)
    })
}

impl Toolbox<'_> {
    pub(super) fn read_file(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let path = self
            .confinement()
            .existing(&self.workspace, str_arg(input, "path")?)
            .map_err(|e| e.to_string())?;
        self.check_served_path(&path)?;
        read_text(&path)
    }

    pub(super) fn list_dir(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let relative = input["path"].as_str().unwrap_or(".");
        let path = self
            .confinement()
            .existing(&self.workspace, relative)
            .map_err(|e| e.to_string())?;
        let mut names: Vec<String> = std::fs::read_dir(&path)
            .map_err(|e| format!("{relative}: {e}"))?
            .filter_map(Result::ok)
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    format!("{name}/")
                } else {
                    name
                }
            })
            .collect();
        names.sort();
        let truncated = names.len() > MAX_LIST;
        names.truncate(MAX_LIST);
        Ok(ToolOutput {
            truncated,
            ..ToolOutput::ok(names.join("\n"))
        })
    }

    pub(super) fn grep(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let pattern = regex::Regex::new(str_arg(input, "pattern")?)
            .map_err(|e| format!("invalid pattern: {e}"))?;
        let relative = input["path"].as_str().unwrap_or(".");
        let root = self
            .confinement()
            .existing(&self.workspace, relative)
            .map_err(|e| e.to_string())?;
        let mut hits = Vec::new();
        let walk = ignore::WalkBuilder::new(&root).hidden(true).build();
        'files: for entry in walk.filter_map(Result::ok) {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let Ok(file) = std::fs::File::open(entry.path()) else {
                continue;
            };
            let shown = entry
                .path()
                .strip_prefix(&self.workspace)
                .unwrap_or(entry.path())
                .display()
                .to_string();
            let reader = std::io::BufReader::new(file);
            let _ = for_each_line(reader, |number, line| {
                if pattern.is_match(line) {
                    hits.push(format!("{shown}:{number}: {line}"));
                }
                hits.len() <= MAX_GREP_HITS
            });
            if hits.len() > MAX_GREP_HITS {
                break 'files;
            }
        }
        let truncated = hits.len() > MAX_GREP_HITS;
        hits.truncate(MAX_GREP_HITS);
        if hits.is_empty() {
            return Ok(ToolOutput::ok("No matches."));
        }
        Ok(ToolOutput {
            truncated,
            ..ToolOutput::ok(hits.join("\n"))
        })
    }

    pub(super) fn write_file(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let relative = str_arg(input, "path")?;
        let content = str_arg(input, "content")?;
        if self.sandbox.mode == SandboxMode::ReadOnly {
            return Err(format!(
                "{relative} was not written: this run is read-only (--sandbox read-only)"
            ));
        }
        let path = Confinement::new([self.workspace.clone()])
            .writable(&self.workspace, relative)
            .map_err(|e| e.to_string())?;
        if let Some(why) = self.read_only(&path) {
            return Err(format!("{relative} is read-only for the agent: {why}"));
        }
        self.snapshot_once();
        // Written relative to the workspace, following no symlink: a folder
        // swapped for a link since the check above fails the write.
        let inside = path
            .strip_prefix(&self.workspace)
            .map_err(|_| format!("{relative} is outside the workspace"))?;
        write_beneath::write_beneath(&self.workspace, inside, content.as_bytes())
            .map_err(|e| format!("{relative}: {e}"))?;
        Ok(ToolOutput::ok(format!(
            "Wrote {} bytes to {relative}.",
            content.len()
        )))
    }

    /// Why the agent may not write `path` (resolved, in the workspace), if
    /// it may not: the sandbox's one rule ([`sandbox::protected`]), with
    /// the skills' folders and roots of this run.
    pub(super) fn read_only(&self, path: &Path) -> Option<&'static str> {
        let skills: Vec<PathBuf> = self
            .skill_dirs()
            .iter()
            .chain(&self.protected_roots)
            .cloned()
            .collect();
        sandbox::ProtectedPaths {
            workspace: &self.workspace,
            skills: &skills,
            allow_write: &self.sandbox.allow_write,
        }
        .why(path)
    }
}
