//! The warnings an install gives about many skills at once, summed up:
//! one line per kind, with the command that shows the details, and the
//! full list with `-v`. A repository of hundreds of skills that break
//! the same rule gets a few lines, not hundreds.

use crate::ops::install::Change;

use super::Context;

/// How many names a summary line shows before `…`.
const NAMES_SHOWN: usize = 3;

/// Whether `change`'s broken rules are said on a line of their own (with
/// `-v`, or when it is the only skill breaking rules), rather than in
/// [`broken_rules_summary`].
pub(super) fn broken_rules_said_alone(context: &Context, changes: &[Change]) -> bool {
    context.printer.is_verbose() || changes.iter().filter(|c| c.broken_rules.is_some()).count() <= 1
}

/// One warning for every skill this install put in place that breaks the
/// specification's rules, with one line per rule: how many skills break
/// it, and the first few of them; then a hint with the command that shows
/// why. Nothing when [`broken_rules_said_alone`].
pub(super) fn broken_rules_summary(context: &Context, changes: &[Change]) {
    if broken_rules_said_alone(context, changes) {
        return;
    }
    let broken: Vec<_> = changes
        .iter()
        .filter_map(|c| c.broken_rules.as_ref().map(|b| (c.name.as_str(), b)))
        .collect();
    let mut by_rule: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (name, rules) in &broken {
        for rule in &rules.rules {
            by_rule.entry(rule.as_str()).or_default().push(name);
        }
    }
    let width = by_rule.keys().map(|r| r.len()).max().unwrap_or(0);
    let table: String = by_rule
        .iter()
        .map(|(rule, names)| {
            let mut shown = names[..names.len().min(NAMES_SHOWN)].join(", ");
            if names.len() > NAMES_SHOWN {
                shown.push_str(", …");
            }
            format!(
                "\n  {rule:width$}  {} ({shown})",
                super::printer::count(names.len(), "skill")
            )
        })
        .collect();
    context.printer.warn(format_args!(
        "{} skills break the specification's rules, and are installed as agents load them:{table}",
        broken.len()
    ));
    let (_, first) = broken[0];
    context.printer.hint(format_args!(
        "`skillpkg validate {}` shows why, -v lists every skill's rules, and --require-valid refuses such skills",
        crate::hint::shell_path(&first.folder)
    ));
}

/// The folders of a repository that hold a SKILL.md agents cannot load:
/// each on a line of its own when there is one (or with `-v`), else one
/// line for them all, with the command that lists them.
pub(super) fn skipped_folders(context: &Context, listing: &crate::ops::install::repo::RepoListing) {
    match listing.skipped.as_slice() {
        [] => {}
        several @ [_, _, ..] if !context.printer.is_verbose() => {
            context.printer.warn(format_args!(
                "skipped {} folders of {} whose SKILL.md agents cannot load",
                several.len(),
                listing.url
            ));
            context.printer.hint(format_args!(
                "-v lists them with why, and so does `skillpkg add --git {} --list`",
                crate::hint::shell_quote(&listing.url)
            ));
        }
        all => {
            for skipped in all {
                context.printer.warn(format_args!("skipped {skipped}"));
            }
        }
    }
}

/// Says that a source is a plugin, which skills it holds, and what it
/// reports (unknown manifest fields, paths skipped, MCP servers left out).
pub(super) fn plugin(context: &Context, plugin: &crate::ops::plugin::Plugin, skills: &[&str]) {
    let kinds: Vec<String> = plugin
        .kinds
        .iter()
        .map(|kind| format!("{} ({})", kind.shown(), kind.manifest()))
        .collect();
    context.printer.status(
        "Plugin",
        format_args!(
            "{}, {}, holds {}: {}",
            plugin.title(),
            kinds.join(" and "),
            super::printer::count(skills.len(), "skill"),
            skills.join(", ")
        ),
    );
    for warning in &plugin.warnings {
        context
            .printer
            .warn(format_args!("plugin {}: {warning}", plugin.title()));
    }
}

/// How many scanner findings the summary table shows without `-v`.
const FINDINGS_SHOWN: usize = 10;

/// One warning for the scanner's `warn` findings in the trees this
/// install put in place: a table of skill, place, rule and message (the
/// first few, every one with `-v`), then the command that shows them in
/// full. Said once, when the trees are put in place.
pub(super) fn scan_warnings_summary(context: &Context, changes: &[Change]) {
    let rows: Vec<(&str, String, &str, &str)> = changes
        .iter()
        .flat_map(|c| {
            c.scan_warnings.iter().map(|w| {
                let place = match w.line {
                    Some(line) => format!("{}:{line}", w.file),
                    None => w.file.clone(),
                };
                (c.name.as_str(), place, w.rule.as_str(), w.message.as_str())
            })
        })
        .collect();
    let Some((first, ..)) = rows.first() else {
        return;
    };
    let shown = match context.printer.is_verbose() {
        true => rows.len(),
        false => rows.len().min(FINDINGS_SHOWN),
    };
    let widths = (
        rows.iter().map(|r| r.0.len()).max().unwrap_or(0),
        rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0),
        rows.iter().map(|r| r.2.len()).max().unwrap_or(0),
    );
    let mut table: String = rows[..shown]
        .iter()
        .map(|(name, place, rule, message)| {
            format!(
                "\n  {name:0$}  {place:1$}  {rule:2$}  {message}",
                widths.0, widths.1, widths.2
            )
        })
        .collect();
    if shown < rows.len() {
        table.push_str(&format!(
            "\n  … and {} more (-v lists them)",
            rows.len() - shown
        ));
    }
    let skills = changes
        .iter()
        .filter(|c| !c.scan_warnings.is_empty())
        .count();
    context.printer.warn(format_args!(
        "the scanner found {} to review in {}:{table}",
        super::printer::count(rows.len(), "thing"),
        super::printer::count(skills, "installed skill")
    ));
    context.printer.hint(format_args!(
        "`skillpkg scan {}` shows each with the text it found",
        crate::hint::shell_quote(first)
    ));
}
