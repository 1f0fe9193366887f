//! Level 1: the catalog of skills in the system prompt, within a character
//! budget: 2% of the model's context window, 8,000 characters when it is
//! unknown, or what `exec --catalog-budget` says.
//!
//! Entries are ranked by relevance to the task. When the full catalog does
//! not fit, descriptions are shortened first (to 200, 100, 50 characters,
//! then to nothing); only then are the least relevant entries dropped, and
//! the prompt says how many were left out and that `search_skills` finds
//! them.

use serde::Serialize;

use crate::skill::Skill;
use crate::skill::prompt::html_escape;

/// The budget when the model's context window is unknown.
pub const DEFAULT_BUDGET: usize = 8_000;

/// The budget for a model with `context_window` tokens: 2% of it, at about
/// four characters a token.
pub fn budget_for(context_window: Option<usize>) -> usize {
    context_window.map_or(DEFAULT_BUDGET, |tokens| tokens * 4 / 50)
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

/// Words of `text` worth matching: lowercase, alphanumeric runs of three or
/// more characters.
pub fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_string)
        .collect()
}

/// How many of `query`'s words the skill's name and description contain
/// (a word matching the name counts twice).
pub fn relevance(skill: &Skill, query: &[String]) -> usize {
    let name = skill.meta.name.to_lowercase();
    let description = skill.meta.description.to_lowercase();
    query
        .iter()
        .map(|w| {
            2 * usize::from(name.contains(w.as_str()))
                + usize::from(description.contains(w.as_str()))
        })
        .sum()
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
    text.push_str(&format!(
        "<location>{}</location>\n</skill>\n",
        html_escape(&skill.skill_md.display().to_string())
    ));
    (text, shortened)
}

const OPEN: &str = "<available_skills>\n";
const CLOSE: &str = "</available_skills>";

/// Builds the catalog of `skills` for `task` within `budget` characters.
pub fn build(skills: &[&Skill], task: &str, budget: usize) -> Catalog {
    let query = words(task);
    let mut ranked: Vec<&Skill> = skills.to_vec();
    ranked.sort_by(|a, b| {
        relevance(b, &query)
            .cmp(&relevance(a, &query))
            .then_with(|| a.meta.name.cmp(&b.meta.name))
    });
    for cap in [None, Some(200), Some(100), Some(50), Some(0)] {
        let rendered: Vec<(String, bool)> = ranked.iter().map(|s| entry(s, cap)).collect();
        let total = OPEN.len() + CLOSE.len() + rendered.iter().map(|(t, _)| t.len()).sum::<usize>();
        if total <= budget || cap == Some(0) {
            return assemble(&ranked, rendered, budget);
        }
    }
    unreachable!("the last cap always assembles")
}

fn assemble(ranked: &[&Skill], rendered: Vec<(String, bool)>, budget: usize) -> Catalog {
    let mut text = OPEN.to_string();
    let mut entries = Vec::new();
    let mut omitted = Vec::new();
    // Room for the closing tag and the omission notice.
    let reserve = CLOSE.len() + omission_notice(ranked.len()).len();
    for (skill, (entry, shortened)) in ranked.iter().zip(rendered) {
        if omitted.is_empty() && text.len() + entry.len() + reserve <= budget {
            entries.push(CatalogEntry {
                name: skill.meta.name.clone(),
                chars: entry.len(),
                shortened,
            });
            text.push_str(&entry);
        } else {
            omitted.push(skill.meta.name.clone());
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
    use crate::skill::model::SkillMeta;

    fn skill(name: &str, description: &str) -> Skill {
        Skill {
            meta: SkillMeta {
                name: name.into(),
                description: description.into(),
                license: None,
                compatibility: None,
                allowed_tools: Vec::new(),
                metadata: Default::default(),
                extra: Default::default(),
            },
            dir: format!("/skills/{name}").into(),
            skill_md: format!("/skills/{name}/SKILL.md").into(),
            warnings: Vec::new(),
            world_writable: false,
        }
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
    fn over_budget_descriptions_shrink_before_entries_go() {
        let long = "word ".repeat(100);
        let skills: Vec<Skill> = (0..10).map(|i| skill(&format!("s{i}"), &long)).collect();
        let refs: Vec<&Skill> = skills.iter().collect();
        let catalog = build(&refs, "task", 1_500);
        assert!(catalog.omitted.is_empty(), "{:?}", catalog.omitted);
        assert!(catalog.entries.iter().all(|e| e.shortened));
        assert!(catalog.text.len() <= 1_500, "{}", catalog.text.len());

        let catalog = build(&refs, "task", 400);
        assert!(!catalog.omitted.is_empty());
        assert!(catalog.text.len() <= 400, "{}", catalog.text.len());
        assert!(catalog.text.contains(&format!(
            "{} more skills were left out",
            catalog.omitted.len()
        )));
        assert_eq!(catalog.entries.len() + catalog.omitted.len(), 10);
    }

    #[test]
    fn the_budget_is_two_percent_of_the_context() {
        assert_eq!(budget_for(Some(200_000)), 16_000);
        assert_eq!(budget_for(None), DEFAULT_BUDGET);
    }
}
