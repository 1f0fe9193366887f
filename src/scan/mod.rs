//! `skillpkg scan`: a small, precise rule set over every file of a skill
//! (DESIGN §12). Each rule has an id, a severity and a one-line rationale;
//! what a finding weighs depends on where it is: a script, a package
//! manager's lifecycle hook or `SKILL.md`'s instructions run, while a code
//! block in Markdown documents (there a rule that would block at most
//! warns). Text is read up to [`file::MAX_TEXT`] bytes a file; binaries
//! are classified by their first bytes. Nothing is run and nothing leaves
//! the machine.

mod assign;
pub(crate) mod behaviour;
mod control_plane;
mod decode;
mod exfil;
mod file;
mod finding;
mod flows;
mod pattern;
mod rules;
mod runs;
pub(crate) mod sarif;
mod shell;
#[cfg(test)]
mod tests;
pub(crate) mod verdict;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub(crate) use finding::{Finding, Severity};
pub(crate) use rules::RULES;

/// The rule set's version: a cached verdict of another version is stale.
pub(crate) const RULESET_VERSION: u32 = 5;

/// Everything found in one skill.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Report {
    /// The skill's folder.
    pub dir: PathBuf,
    /// Its findings, by file and line.
    pub findings: Vec<Finding>,
    /// Files read, and bytes of text read.
    pub files: usize,
    pub bytes: u64,
}

impl Report {
    /// Whether any finding blocks that no waiver accepts.
    pub(crate) fn blocks(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity == Severity::Block && f.waived.is_none())
    }
}

/// Every file under the skill folder `dir`, read for the rules, by path
/// (links are not followed; version-control folders are skipped).
fn read_files(dir: &Path) -> impl Iterator<Item = std::io::Result<file::Read>> + '_ {
    walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !matches!(e.file_name().to_str(), Some(".git" | ".hg" | ".svn")))
        .filter_map(move |entry| match entry {
            Err(e) => Some(Err(std::io::Error::other(e))),
            Ok(entry) if !entry.file_type().is_file() => None,
            Ok(entry) => {
                let relative = crate::fsutil::relative_slashed(entry.path(), dir);
                Some(file::read(entry.path(), &relative))
            }
        })
}

/// Scans every file under the skill folder `dir` (links are not followed;
/// version-control folders are skipped). A file that `SKILL.md` or a
/// script runs with an interpreter is scanned as a script, whatever its
/// name (and so are the files it runs in turn).
pub(crate) fn scan_dir(dir: &Path) -> std::io::Result<Report> {
    let mut report = Report {
        dir: dir.to_path_buf(),
        ..Report::default()
    };
    // Each file's kind and findings, by path; and what scripts run.
    let mut scanned: Vec<(String, file::Kind, Vec<Finding>)> = Vec::new();
    let mut run = Vec::new();
    for read in read_files(dir) {
        let read = read?;
        report.files += 1;
        report.bytes += read.text.as_ref().map_or(0, |t| t.len() as u64);
        run.extend(runs::run_by(&read));
        scanned.push((read.relative.clone(), read.kind, rules::scan_file(&read)));
    }
    let by_path: std::collections::HashMap<String, usize> = scanned
        .iter()
        .enumerate()
        .map(|(i, (relative, _, _))| (relative.clone(), i))
        .collect();
    while let Some(path) = run.pop() {
        let Some((relative, kind, findings)) = by_path
            .get(&path)
            .map(|&i| &mut scanned[i])
            .filter(|(_, kind, _)| matches!(kind, file::Kind::Document | file::Kind::Data))
        else {
            continue;
        };
        let read = file::read_as(&dir.join(&*relative), relative, true)?;
        run.extend(runs::run_by(&read));
        *kind = read.kind;
        *findings = rules::scan_file(&read);
    }
    report.findings = scanned.into_iter().flat_map(|(_, _, f)| f).collect();
    report
        .findings
        .sort_by(|a, b| (&a.file, a.line, a.rule).cmp(&(&b.file, b.line, b.rule)));
    Ok(report)
}
