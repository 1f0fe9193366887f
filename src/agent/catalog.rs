//! Level 1: the catalog of skills in the system prompt, within a character
//! budget: 2% of the model's context window, 8,000 characters when it is
//! unknown, or what `exec --catalog-budget` says.
//!
//! Entries are ranked by relevance to the task (BM25, see
//! [`super::rank`]) and the budget is filled from the top: whole
//! descriptions (up to the specification's 1,024 characters) for the best
//! matches, then shortened ones, then names only, then nothing, the prompt
//! saying how many were left out and that `search_skills` finds them. A top
//! entry's description is never cut to make room for a lower entry's name.
//! Skills that match nothing in the task share what is left evenly, their
//! descriptions cut to one length (names only, at worst).

use serde::Serialize;

use crate::skill::Skill;
use crate::skill::prompt::html_escape;

/// The budget when the model's context window is unknown.
pub(crate) const DEFAULT_BUDGET: usize = 8_000;

/// The budget for a model with `context_window` tokens: 2% of it, at about
/// four characters a token.
pub(crate) fn budget_for(context_window: Option<usize>) -> usize {
    context_window.map_or(DEFAULT_BUDGET, |tokens| tokens * 4 / 50)
}

/// The catalog's budget for a run, one rule for `exec` (and its
/// `--dry-run`) and `prompt --task`: `explicit` (`--catalog-budget`,
/// `--budget`), else 2% of the context window the project configures
/// (`[agent] context_window`), else of the model's, else
/// [`DEFAULT_BUDGET`].
pub(crate) fn resolve_budget(
    explicit: Option<usize>,
    configured_window: Option<usize>,
    model_window: Option<usize>,
) -> usize {
    explicit.unwrap_or_else(|| budget_for(configured_window.or(model_window)))
}

/// One skill's place in the catalog.
#[derive(Debug, Clone, Serialize)]
pub struct CatalogEntry {
    /// The skill.
    pub name: String,
    /// Characters its entry takes.
    pub chars: usize,
    /// Whether its description was shortened to fit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shortened: bool,
}

/// The rendered catalog.
#[derive(Debug, Clone, Serialize)]
pub struct Catalog {
    /// The block for the system prompt.
    pub text: String,
    /// The skills listed, most relevant first.
    pub entries: Vec<CatalogEntry>,
    /// Skills left out for the budget, by name.
    pub omitted: Vec<String>,
    /// The budget it was built for.
    pub budget: usize,
}

fn entry(skill: &Skill, description_cap: Option<usize>) -> (String, bool) {
    let full = skill.meta.catalog_description();
    let (description, shortened) = match description_cap {
        Some(cap) if full.chars().count() > cap => {
            let cut: String = full.chars().take(cap).collect();
            (
                if cap == 0 {
                    cut
                } else {
                    format!("{}…", cut.trim_end())
                },
                true,
            )
        }
        _ => (full.to_string(), false),
    };
    let mut text = format!("<skill>\n<name>{}</name>\n", html_escape(&skill.meta.name));
    if !description.is_empty() {
        text.push_str(&format!(
            "<description>{}</description>\n",
            html_escape(&description)
        ));
    }
    if let Some(origin) = &skill.origin {
        text.push_str(&format!("<origin>{}</origin>\n", html_escape(origin)));
    }
    text.push_str(&format!(
        "<location>{}</location>\n</skill>\n",
        html_escape(&skill.skill_md.display().to_string())
    ));
    (text, shortened)
}

const OPEN: &str = "<available_skills>\n";
const CLOSE: &str = "</available_skills>";

/// The longest description the catalog shows: the specification's limit.
const MAX_DESCRIPTION: usize = 1_024;
/// What a description of a match is cut to when the whole does not fit.
const SHORTENED: usize = 200;

/// Builds the catalog of `skills` for `task` within `budget` characters.
pub(crate) fn build(skills: &[&Skill], task: &str, budget: usize) -> Catalog {
    let ranked = super::rank::Ranker::new(skills).rank(task);
    let (matches, rest): (Vec<_>, Vec<_>) = ranked.into_iter().partition(|(_, score)| *score > 0.0);
    // Room for the tags and, should anything be left out, the notice.
    let reserve = OPEN.len() + CLOSE.len() + omission_notice(skills.len()).len();
    let mut left = budget.saturating_sub(reserve);
    let mut chosen: Vec<(&Skill, Option<(String, bool)>)> = Vec::new();
    // Matches, best first: each gets the most that fits.
    for (skill, _) in matches {
        let lengths = Lengths::of(skill);
        let form = match lengths.at(MAX_DESCRIPTION) <= left {
            true => Some(entry(skill, Some(MAX_DESCRIPTION))),
            false => largest_fitting(skill, &lengths, SHORTENED, left),
        };
        if let Some((text, _)) = &form {
            left -= text.len();
        }
        chosen.push((skill, form));
    }
    // The others share what is left, cut to one length...
    let rest: Vec<(&Skill, Lengths)> = rest
        .into_iter()
        .map(|(skill, _)| (skill, Lengths::of(skill)))
        .collect();
    let cap = even_cap(rest.iter().map(|(_, lengths)| lengths), left);
    let first_other = chosen.len();
    for (skill, lengths) in &rest {
        let form = (lengths.at(cap) <= left).then(|| entry(skill, Some(cap)));
        if let Some((text, _)) = &form {
            left -= text.len();
        }
        chosen.push((skill, form));
    }
    // ...and what the even cut leaves over goes to the first of them,
    // until a cut description can no longer grow (nor can the next ones).
    for ((skill, form), (_, lengths)) in chosen[first_other..].iter_mut().zip(&rest) {
        let Some((text, shortened)) = form.as_ref() else {
            break;
        };
        let (had, shortened) = (text.len(), *shortened);
        match largest_fitting(skill, lengths, SHORTENED.max(cap), left + had) {
            Some(longer) if longer.0.len() > had => {
                left = left + had - longer.0.len();
                *form = Some(longer);
            }
            _ if shortened => break,
            _ => {}
        }
    }
    assemble(chosen, budget)
}

/// The length of a skill's entry at any description cap, found without
/// rendering it: the catalog weighs every skill at many caps and renders
/// only those it lists.
struct Lengths {
    /// The entry without its description.
    bare: usize,
    /// The escaped description, whole.
    whole: usize,
    /// For each count `k` of characters from 0 to all: the escaped length
    /// of the first `k` with trailing whitespace trimmed.
    cut: Vec<u32>,
}

impl Lengths {
    fn of(skill: &Skill) -> Lengths {
        let description = skill.meta.catalog_description();
        let mut cut = Vec::with_capacity(description.len() + 1);
        cut.push(0);
        let (mut escaped, mut trimmed) = (0, 0);
        for c in description.chars() {
            escaped += match c {
                '&' => "&amp;".len(),
                '<' | '>' => "&lt;".len(),
                '"' => "&quot;".len(),
                '\'' => "&#x27;".len(),
                c => c.len_utf8(),
            };
            if !c.is_whitespace() {
                trimmed = escaped;
            }
            cut.push(trimmed as u32);
        }
        Lengths {
            bare: entry(skill, Some(0)).0.len(),
            whole: escaped,
            cut,
        }
    }

    /// The length of the entry with its description cut to `cap`
    /// characters, as [`entry`] renders it.
    fn at(&self, cap: usize) -> usize {
        const TAGS: usize = "<description></description>\n".len();
        match cap {
            _ if cap + 1 >= self.cut.len() && self.whole == 0 => self.bare,
            _ if cap + 1 >= self.cut.len() => self.bare + TAGS + self.whole,
            0 => self.bare,
            _ => self.bare + TAGS + self.cut[cap] as usize + "…".len(),
        }
    }
}

/// `skill`'s entry with the longest description, up to `max_cap`
/// characters, that takes at most `room`; `None` when not even its name
/// fits.
fn largest_fitting(
    skill: &Skill,
    lengths: &Lengths,
    max_cap: usize,
    room: usize,
) -> Option<(String, bool)> {
    let fits = |cap: usize| lengths.at(cap) <= room;
    if !fits(0) {
        return None;
    }
    let (mut low, mut high) = (0, max_cap);
    if fits(high) {
        return Some(entry(skill, Some(high)));
    }
    while low + 1 < high {
        let middle = (low + high) / 2;
        match fits(middle) {
            true => low = middle,
            false => high = middle,
        }
    }
    Some(entry(skill, Some(low)))
}

/// The longest description cap at which every one of `skills` fits in
/// `room` (0, names only, when none does).
fn even_cap<'l>(skills: impl Iterator<Item = &'l Lengths> + Clone, room: usize) -> usize {
    let fits = |cap: usize| skills.clone().map(|s| s.at(cap)).sum::<usize>() <= room;
    let (mut low, mut high) = (0, MAX_DESCRIPTION);
    if fits(high) {
        return high;
    }
    while low + 1 < high {
        let middle = (low + high) / 2;
        match fits(middle) {
            true => low = middle,
            false => high = middle,
        }
    }
    low
}

fn assemble(chosen: Vec<(&Skill, Option<(String, bool)>)>, budget: usize) -> Catalog {
    let mut text = OPEN.to_string();
    let mut entries = Vec::new();
    let mut omitted = Vec::new();
    for (skill, form) in chosen {
        match form {
            Some((entry, shortened)) => {
                entries.push(CatalogEntry {
                    name: skill.meta.name.clone(),
                    chars: entry.len(),
                    shortened,
                });
                text.push_str(&entry);
            }
            None => omitted.push(skill.meta.name.clone()),
        }
    }
    text.push_str(CLOSE);
    if !omitted.is_empty() {
        text.push_str(&omission_notice(omitted.len()));
    }
    Catalog {
        text,
        entries,
        omitted,
        budget,
    }
}

fn omission_notice(count: usize) -> String {
    format!(
        "\n{count} more skills were left out of this list for space: call search_skills with keywords from the task to find them."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, description: &str) -> Skill {
        Skill::sample(name, description)
    }

    #[test]
    fn everything_fits_within_a_large_budget_most_relevant_first() {
        let a = skill("alpha", "Does alpha things.");
        let pdf = skill("pdf-processing", "Extract text from PDF files.");
        let catalog = build(&[&a, &pdf], "summarize report.pdf", DEFAULT_BUDGET);
        assert_eq!(catalog.entries[0].name, "pdf-processing");
        assert!(catalog.omitted.is_empty());
        assert!(
            catalog
                .text
                .starts_with("<available_skills>\n<skill>\n<name>pdf-processing</name>")
        );
        assert!(
            catalog
                .text
                .contains("<location>/skills/alpha/SKILL.md</location>")
        );
        let sum: usize = catalog.entries.iter().map(|e| e.chars).sum();
        assert_eq!(catalog.text.len(), sum + OPEN.len() + CLOSE.len());
    }

    #[test]
    fn the_best_matches_keep_whole_descriptions_and_the_rest_share_what_is_left() {
        let long = "Handles the things of this kind in detail. ".repeat(8);
        let pdf = skill(
            "pdf-processing",
            &format!("Extract text from PDF files. {long}"),
        );
        let others: Vec<Skill> = (0..30)
            .map(|i| skill(&format!("other-{i:02}"), &long))
            .collect();
        let mut refs: Vec<&Skill> = others.iter().collect();
        refs.push(&pdf);
        let catalog = build(&refs, "summarize report.pdf", 4_000);
        assert_eq!(catalog.entries[0].name, "pdf-processing");
        assert!(!catalog.entries[0].shortened, "the top match is whole");
        assert!(
            catalog
                .text
                .contains(&html_escape(pdf.meta.catalog_description()))
        );
        assert!(catalog.text.len() <= 4_000, "{}", catalog.text.len());
        assert!(
            catalog.text.len() >= 3_600,
            "the budget is used: {}",
            catalog.text.len()
        );

        // Nothing matches: every description is cut to about one length
        // (what the even cut leaves over lengthens the first ones a little).
        let refs: Vec<&Skill> = others.iter().collect();
        let catalog = build(&refs, "kubernetes", 4_000);
        assert!(catalog.omitted.is_empty(), "{:?}", catalog.omitted);
        let lengths: Vec<usize> = catalog.entries.iter().map(|e| e.chars).collect();
        let (shortest, longest) = (lengths.iter().min().unwrap(), lengths.iter().max().unwrap());
        assert!(longest - shortest <= 40, "shortened evenly: {lengths:?}");
        assert!(catalog.text.len() <= 4_000);
        assert!(catalog.text.len() >= 3_600, "{}", catalog.text.len());

        // Too little room even for names: the tail is left out, with a notice.
        let catalog = build(&refs, "kubernetes", 600);
        assert!(!catalog.omitted.is_empty());
        assert!(catalog.text.len() <= 600, "{}", catalog.text.len());
        assert!(catalog.text.contains(&format!(
            "{} more skills were left out",
            catalog.omitted.len()
        )));
        assert_eq!(catalog.entries.len() + catalog.omitted.len(), 30);
    }

    /// A root of 300 skills: 30 distinct targets among 270 distractors that
    /// share generic words, and a task written for each target.
    #[test]
    fn each_target_ranks_in_the_first_ten_with_its_whole_description() {
        const TOPICS: [&str; 30] = [
            "kubernetes",
            "terraform",
            "postgres",
            "graphql",
            "webassembly",
            "bluetooth",
            "spectrogram",
            "latex",
            "ffmpeg",
            "geojson",
            "protobuf",
            "oauth",
            "sqlite",
            "regex",
            "markdown",
            "xlsx",
            "docx",
            "pptx",
            "svg",
            "dicom",
            "fasta",
            "nginx",
            "systemd",
            "ansible",
            "prometheus",
            "kafka",
            "redis",
            "elasticsearch",
            "webrtc",
            "cuda",
        ];
        let generic = "Use when the user asks for help with files, documents, data, code or reports; works with projects and tasks of many kinds.";
        let mut skills: Vec<Skill> = TOPICS
            .iter()
            .map(|t| {
                skill(
                    &format!("{t}-helper"),
                    &format!("Work with {t}: create, inspect and fix {t} setups. {generic}"),
                )
            })
            .collect();
        for i in 0..270 {
            skills.push(skill(
                &format!("helper-{i:03}"),
                &format!("General helper number {i} for everyday work. {generic}"),
            ));
        }
        let refs: Vec<&Skill> = skills.iter().collect();
        for topic in TOPICS {
            let task =
                format!("Please fix the {topic} setup in this project and report what changed");
            let catalog = build(&refs, &task, 16_000);
            let target = format!("{topic}-helper");
            let place = catalog.entries.iter().position(|e| e.name == target);
            assert!(place.is_some_and(|p| p < 10), "{topic}: {place:?}");
            assert!(!catalog.entries[place.unwrap()].shortened, "{topic}");
            let described = catalog
                .entries
                .iter()
                .filter(|e| !e.shortened || e.chars > 120)
                .count();
            assert!(
                described >= 20,
                "{topic}: {described} entries carry descriptions"
            );
            assert!(
                catalog.text.len() * 10 >= 16_000 * 9 || catalog.omitted.is_empty(),
                "{topic}: {} of 16,000 used",
                catalog.text.len()
            );
        }
    }

    #[test]
    fn lengths_are_those_of_the_rendered_entries_at_every_cap() {
        let descriptions = [
            "Plain words. Use when testing.",
            "Cut   between  spaces, \"quotes\" & <tags> and 'apostrophes'.",
            "Ünïcödé — dashes … and emoji 📄 at the end📄",
            "x",
            "ends with spaces   ",
            "",
            &"Long and longer. ".repeat(80),
        ];
        for description in descriptions {
            let skill = skill("a-skill", description);
            let lengths = Lengths::of(&skill);
            let count = skill.meta.catalog_description().chars().count();
            for cap in (0..count + 3).chain([SHORTENED, MAX_DESCRIPTION]) {
                assert_eq!(
                    lengths.at(cap),
                    entry(&skill, Some(cap)).0.len(),
                    "{description:?} at {cap}"
                );
            }
        }
    }

    #[test]
    fn the_budget_is_two_percent_of_the_context() {
        assert_eq!(budget_for(Some(200_000)), 16_000);
        assert_eq!(budget_for(None), DEFAULT_BUDGET);
        assert_eq!(resolve_budget(Some(500), Some(1_000), Some(2_000)), 500);
        assert_eq!(resolve_budget(None, Some(100_000), Some(200_000)), 8_000);
        assert_eq!(resolve_budget(None, None, Some(200_000)), 16_000);
        assert_eq!(resolve_budget(None, None, None), DEFAULT_BUDGET);
    }
}
