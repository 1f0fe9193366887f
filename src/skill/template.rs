//! The `SKILL.md` that `skillpkg new` writes, and how to tell that its
//! placeholder text is still there: `validate --strict` warns about each
//! piece an author left as the template wrote it.

/// The version a new skill starts at (`metadata.version`, which
/// `publish` reads).
pub(crate) const FIRST_VERSION: &str = "0.1.0";

/// How the placeholder description starts, before the skill's name.
const DESCRIPTION_START: &str = "Describe what ";
/// How the placeholder description ends, after the skill's name.
const DESCRIPTION_END: &str =
    " does in one sentence. Use when the user asks to … (say when an agent should load it).";

/// The body's placeholder lines, as the template writes them.
const BODY_PLACEHOLDERS: [&str; 4] = [
    "Describe the tasks this skill is for, and what it is not for.",
    "1. First step the agent should take.",
    "2. Next step. Put long reference material in `references/` and helper",
    "   programs in `scripts/`, and link them from here.",
];

/// The description a new skill named `name` gets when none is given.
pub(crate) fn placeholder_description(name: &str) -> String {
    format!("{DESCRIPTION_START}{name}{DESCRIPTION_END}")
}

/// Whether `description` is the template's placeholder, for any name.
pub(crate) fn is_placeholder_description(description: &str) -> bool {
    let description = description.trim();
    description.starts_with(DESCRIPTION_START) && description.ends_with(DESCRIPTION_END)
}

/// The body of a new skill, under the heading `title`.
pub(crate) fn body(title: &str) -> String {
    let [when, first, next, next_more] = BODY_PLACEHOLDERS;
    format!("# {title}\n\n## When to use\n\n{when}\n\n## Steps\n\n{first}\n{next}\n{next_more}\n")
}

/// The runs of consecutive lines of `body` that are the template's
/// placeholders, as `(first, last)` 0-based line indices.
pub(crate) fn placeholder_runs(body: &str) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, line) in body.lines().enumerate() {
        if !BODY_PLACEHOLDERS.contains(&line.trim_end()) {
            continue;
        }
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == i => *last = i,
            _ => runs.push((i, i)),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_own_text_is_found_and_edits_are_not() {
        assert!(is_placeholder_description(&placeholder_description(
            "pdf-tools"
        )));
        assert!(!is_placeholder_description(
            "Describe what a PDF holds. Use when the user asks to read one."
        ));
        let body = body("Pdf Tools");
        assert_eq!(placeholder_runs(&body), [(4, 4), (8, 10)]);
        let edited = body.replace("1. First step the agent should take.", "1. Run it.");
        assert_eq!(placeholder_runs(&edited), [(4, 4), (9, 10)]);
        assert!(placeholder_runs("# Pdf Tools\n\nRun `scripts/x.sh`.\n").is_empty());
    }
}
