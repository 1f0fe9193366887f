//! Ranking skills by relevance to a task: BM25 over each skill's name and
//! description, as two fields (BM25F-style: each field scored on its own,
//! the name's score counting twice). The catalog and `search_skills` rank
//! with it.
//!
//! BM25 (Robertson and Zaragoza's formulation, k1 = 1.2, b = 0.75) scores
//! a skill by the task's words it holds, each weighted by how rare the word
//! is among the skills, with long fields damped: a word every skill says
//! ("use", "when", "files") counts for little, a rare one ("pdf",
//! "kubernetes") for much, and most of all in a name.

use std::collections::HashMap;

use crate::skill::Skill;

/// How much a repeated word adds before it saturates.
const K1: f64 = 1.2;
/// How much a long field is damped.
const B: f64 = 0.75;
/// How much a match in the name counts against one in the description.
const NAME_WEIGHT: f64 = 2.0;

/// The words of `text` that are matched: lowercase alphanumeric runs of
/// two or more characters, with a plural `s` dropped (`pdfs` is `pdf`).
pub fn terms(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem.to_string(),
            _ => w.to_string(),
        })
        .collect()
}

/// One field of every skill: its words with their counts, and how many
/// skills hold each word.
struct Field {
    documents: Vec<HashMap<String, usize>>,
    lengths: Vec<usize>,
    average_length: f64,
    frequency: HashMap<String, usize>,
}

impl Field {
    fn new(texts: impl Iterator<Item = String>) -> Field {
        let documents: Vec<HashMap<String, usize>> = texts
            .map(|text| {
                let mut counts = HashMap::new();
                for term in terms(&text) {
                    *counts.entry(term).or_insert(0) += 1;
                }
                counts
            })
            .collect();
        let lengths: Vec<usize> = documents.iter().map(|d| d.values().sum()).collect();
        let average_length = match lengths.len() {
            0 => 1.0,
            n => (lengths.iter().sum::<usize>() as f64 / n as f64).max(1.0),
        };
        let mut frequency = HashMap::new();
        for document in &documents {
            for term in document.keys() {
                *frequency.entry(term.clone()).or_insert(0) += 1;
            }
        }
        Field {
            documents,
            lengths,
            average_length,
            frequency,
        }
    }

    /// The BM25 score of document `i` for the words of `query`.
    fn score(&self, i: usize, query: &[String]) -> f64 {
        let n = self.documents.len() as f64;
        let length = self.lengths[i] as f64;
        query
            .iter()
            .filter_map(|term| {
                let count = *self.documents[i].get(term)? as f64;
                let df = self.frequency[term] as f64;
                let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                Some(
                    idf * count * (K1 + 1.0)
                        / (count + K1 * (1.0 - B + B * length / self.average_length)),
                )
            })
            .sum()
    }
}

/// An index of skills for ranking.
pub struct Ranker<'s> {
    skills: Vec<&'s Skill>,
    names: Field,
    descriptions: Field,
}

impl<'s> Ranker<'s> {
    /// Indexes `skills`.
    pub fn new(skills: &[&'s Skill]) -> Ranker<'s> {
        Ranker {
            skills: skills.to_vec(),
            names: Field::new(skills.iter().map(|s| s.meta.name.clone())),
            descriptions: Field::new(skills.iter().map(|s| s.meta.description.clone())),
        }
    }

    /// Every skill with its score for `task`, best first (ties by name);
    /// skills that hold none of the task's words score 0.
    pub fn rank(&self, task: &str) -> Vec<(&'s Skill, f64)> {
        let mut query = terms(task);
        query.sort();
        query.dedup();
        let mut ranked: Vec<(&'s Skill, f64)> = (0..self.skills.len())
            .map(|i| {
                let score =
                    NAME_WEIGHT * self.names.score(i, &query) + self.descriptions.score(i, &query);
                (self.skills[i], score)
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| a.0.meta.name.cmp(&b.0.meta.name))
        });
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, description: &str) -> Skill {
        Skill::sample(name, description)
    }

    #[test]
    fn rare_words_and_names_outweigh_common_words() {
        let skills = [
            skill(
                "pdf-processing",
                "Extract text from PDF files. Use when reading files.",
            ),
            skill(
                "spreadsheets",
                "Work with spreadsheet files. Use when editing files.",
            ),
            skill("notes", "Take notes from files. Use when writing files."),
        ];
        let refs: Vec<&Skill> = skills.iter().collect();
        let ranker = Ranker::new(&refs);
        let ranked = ranker.rank("summarize the files in report.pdf");
        assert_eq!(ranked[0].0.meta.name, "pdf-processing");
        assert!(ranked[0].1 > 2.0 * ranked[1].1, "{ranked:?}");
        let none = ranker.rank("kubernetes");
        assert!(none.iter().all(|(_, score)| *score == 0.0));
        assert_eq!(terms("PDFs and classes"), ["pdf", "and", "classe"]);
    }
}
