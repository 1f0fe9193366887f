//! Eval case files: TOML, many cases each.
//!
//! ```toml
//! [defaults]                      # for every case of the file
//! model = "scripted:models/pdf.json"
//! runs = 1
//!
//! [[case]]
//! name = "summary triggers pdf-processing"
//! task = "summarize report.pdf"
//! fixtures = ["fixtures/report.pdf"]   # copied into the case's workspace
//! expect.skills = ["pdf-processing"]
//! expect.not_skills = ["citation-style"]
//! expect.tools = ["run_script"]
//! expect.order = ["use_skill:pdf-processing", "run_script:pdf-processing/scripts/extract_text.sh"]
//! expect.output = { contains = ["revenue"], not_contains = ["error"], regex = ['\d+ percent'] }
//! forbid.tools = ["shell"]
//! budgets = { max_turns = 10 }
//! ```

use std::path::{Path, PathBuf};

use crate::hint::Hinted;
use anyhow::{Context as _, bail};
use serde::Deserialize;

/// A case file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(default)]
    defaults: Defaults,
    #[serde(default, rename = "case")]
    cases: Vec<RawCase>,
}

/// Settings every case of a file starts from.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Defaults {
    model: Option<String>,
    runs: Option<u32>,
    #[serde(default)]
    budgets: CaseBudgets,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    task: String,
    model: Option<String>,
    runs: Option<u32>,
    #[serde(default)]
    fixtures: Vec<String>,
    #[serde(default)]
    expect: Expect,
    #[serde(default)]
    forbid: Forbid,
    #[serde(default)]
    budgets: CaseBudgets,
}

/// What a case expects.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Expect {
    /// Skills that must be activated.
    #[serde(default)]
    pub skills: Vec<String>,
    /// Skills that must not be.
    #[serde(default)]
    pub not_skills: Vec<String>,
    /// Tools that must be called.
    #[serde(default)]
    pub tools: Vec<String>,
    /// Steps that must happen in this order (others may come between):
    /// `use_skill:<name>`, `run_script:<skill>/<path>`,
    /// `read_resource:<skill>/<path>`, or a tool's name.
    #[serde(default)]
    pub order: Vec<String>,
    /// Checks of the final answer.
    #[serde(default)]
    pub output: OutputChecks,
}

/// Checks of the final answer.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OutputChecks {
    /// Substrings it must contain.
    #[serde(default)]
    pub contains: Vec<String>,
    /// Substrings it must not contain.
    #[serde(default)]
    pub not_contains: Vec<String>,
    /// Regular expressions it must match.
    #[serde(default)]
    pub regex: Vec<String>,
}

/// What a case forbids.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Forbid {
    /// Tools that must not be called.
    #[serde(default)]
    pub tools: Vec<String>,
}

/// Budgets of a case (unset ones come from the defaults, then exec's).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseBudgets {
    /// Model turns.
    pub max_turns: Option<u32>,
    /// Tool calls.
    pub max_tool_calls: Option<u32>,
    /// Tokens.
    pub max_tokens: Option<u64>,
}

impl CaseBudgets {
    fn or(self, other: CaseBudgets) -> CaseBudgets {
        CaseBudgets {
            max_turns: self.max_turns.or(other.max_turns),
            max_tool_calls: self.max_tool_calls.or(other.max_tool_calls),
            max_tokens: self.max_tokens.or(other.max_tokens),
        }
    }
}

/// A case, ready to run.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// The file it came from.
    pub file: PathBuf,
    /// Its name (unique within the file).
    pub name: String,
    /// The task given to the agent.
    pub task: String,
    /// The model, when the case or its file names one.
    pub model: Option<String>,
    /// Trials.
    pub runs: u32,
    /// Files copied into the workspace, absolute.
    pub fixtures: Vec<PathBuf>,
    /// Expectations.
    pub expect: Expect,
    /// Prohibitions.
    pub forbid: Forbid,
    /// Budgets.
    pub budgets: CaseBudgets,
}

/// Every case of the `.toml` files among `paths` (directories are searched
/// recursively), in path order then file order.
pub(crate) fn load(paths: &[PathBuf]) -> anyhow::Result<Vec<Case>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
                let entry = entry?;
                if entry.file_type().is_file()
                    && entry.path().extension().is_some_and(|e| e == "toml")
                {
                    files.push(entry.path().to_path_buf());
                }
            }
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            bail!("{}: no such case file or directory", path.display());
        }
    }
    let mut cases = Vec::new();
    for file in files {
        cases.extend(load_file(&file)?);
    }
    Ok(cases)
}

fn load_file(file: &Path) -> anyhow::Result<Vec<Case>> {
    let text = fs_err::read_to_string(file)?;
    let parsed: CaseFile = toml::from_str(&text)
        .with_context(|| format!("{} is not a valid eval case file", file.display()))?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut names = std::collections::BTreeSet::new();
    let mut cases = Vec::new();
    for raw in parsed.cases {
        if !names.insert(raw.name.clone()) {
            bail!("{}: two cases are named '{}'", file.display(), raw.name);
        }
        for pattern in &raw.expect.output.regex {
            regex::Regex::new(pattern).with_context(|| {
                format!(
                    "{}: case '{}': invalid regex {pattern:?}",
                    file.display(),
                    raw.name
                )
            })?;
        }
        let fixtures = raw
            .fixtures
            .iter()
            .map(|f| {
                let path = dir.join(f);
                if !path.exists() {
                    bail!(
                        "{}: case '{}': no fixture {}",
                        file.display(),
                        raw.name,
                        path.display()
                    );
                }
                // A case file may only hand its run what lies beside it:
                // never ~/.ssh, whatever the path or links say.
                let (resolved, folder) = (fs_err::canonicalize(&path)?, fs_err::canonicalize(dir)?);
                if !resolved.starts_with(&folder) {
                    bail!(
                        Hinted::new(format!(
                            "{}: case '{}': fixture {} is outside the case file's folder {}",
                            file.display(),
                            raw.name,
                            path.display(),
                            folder.display()
                        ))
                        .hint("keep fixtures in the folder of the case file, or below it")
                    );
                }
                Ok(resolved)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        cases.push(Case {
            file: file.to_path_buf(),
            task: raw.task,
            model: raw
                .model
                .or_else(|| parsed.defaults.model.clone())
                .map(|m| resolve_scripted(&m, dir)),
            runs: raw.runs.or(parsed.defaults.runs).unwrap_or(1).max(1),
            fixtures,
            expect: raw.expect,
            forbid: raw.forbid,
            budgets: raw.budgets.or(parsed.defaults.budgets),
            name: raw.name,
        });
    }
    Ok(cases)
}

/// A `scripted:` model's file is relative to the case file.
fn resolve_scripted(model: &str, dir: &Path) -> String {
    match model.strip_prefix("scripted:") {
        Some(file) => format!("scripted:{}", dir.join(file).display()),
        None => model.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> anyhow::Result<Vec<Case>> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cases.toml");
        std::fs::write(&file, text).unwrap();
        load(&[file])
    }

    #[test]
    fn defaults_fill_cases_and_bad_files_are_named() {
        let cases = load_text(
            "[defaults]\nmodel = \"scripted:m.json\"\nruns = 2\nbudgets = { max_turns = 3 }\n\n[[case]]\nname = \"a\"\ntask = \"t\"\nbudgets = { max_tokens = 9 }\n",
        )
        .unwrap();
        assert_eq!(cases[0].runs, 2);
        assert!(cases[0].model.as_deref().unwrap().ends_with("/m.json"));
        assert_eq!(cases[0].budgets.max_turns, Some(3));
        assert_eq!(cases[0].budgets.max_tokens, Some(9));
        for (text, message) in [
            (
                "[[case]]\nname = \"a\"\ntask = \"t\"\n[[case]]\nname = \"a\"\ntask = \"u\"\n",
                "two cases are named 'a'",
            ),
            (
                "[[case]]\nname = \"a\"\ntask = \"t\"\nexpect.output = { regex = ['('] }\n",
                "invalid regex",
            ),
            (
                "[[case]]\nname = \"a\"\ntask = \"t\"\nfixtures = [\"gone.pdf\"]\n",
                "no fixture",
            ),
            (
                "[[case]]\nname = \"a\"\ntask = \"t\"\nexpect.skill = [\"x\"]\n",
                "not a valid eval case file",
            ),
        ] {
            let error = format!("{:#}", load_text(text).unwrap_err());
            assert!(error.contains(message), "{error}");
        }
    }
}
