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
    tokens(&text.to_lowercase()).map(str::to_string).collect()
}

/// The matched words of an already lowercased text, as slices of it.
fn tokens(lowercase: &str) -> impl Iterator<Item = &str> {
    lowercase
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem,
            _ => w,
        })
}

/// One field of every skill, scored for one query: how often each of the
/// query's words occurs in each skill's field, how many words each field
/// holds, and how many skills hold each query word. One pass over the
/// texts, without a map of every word of every skill: each ranking is for
/// one task.
struct Field {
    /// Per skill, the count of each query word (in the query's order).
    counts: Vec<Vec<usize>>,
    lengths: Vec<usize>,
    average_length: f64,
    /// Per query word, the skills whose field holds it.
    frequency: Vec<usize>,
}

impl Field {
    fn new<'t>(texts: impl Iterator<Item = &'t str>, query: &[String]) -> Field {
        let mut counts = Vec::new();
        let mut lengths = Vec::new();
        let mut frequency = vec![0; query.len()];
        for text in texts {
            let lowercase = text.to_lowercase();
            let mut document = vec![0; query.len()];
            let mut length = 0;
            for token in tokens(&lowercase) {
                length += 1;
                if let Ok(at) = query.binary_search_by(|q| q.as_str().cmp(token)) {
                    document[at] += 1;
                }
            }
            for (held, df) in document.iter().zip(&mut frequency) {
                *df += usize::from(*held > 0);
            }
            counts.push(document);
            lengths.push(length);
        }
        let average_length = match lengths.len() {
            0 => 1.0,
            n => (lengths.iter().sum::<usize>() as f64 / n as f64).max(1.0),
        };
        Field {
            counts,
            lengths,
            average_length,
            frequency,
        }
    }

    /// The BM25 score of skill `i` for the query.
    fn score(&self, i: usize) -> f64 {
        let n = self.counts.len() as f64;
        let length = self.lengths[i] as f64;
        self.counts[i]
            .iter()
            .zip(&self.frequency)
            .filter(|(count, _)| **count > 0)
            .map(|(&count, &df)| {
                let (count, df) = (count as f64, df as f64);
                let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                idf * count * (K1 + 1.0)
                    / (count + K1 * (1.0 - B + B * length / self.average_length))
            })
            .sum()
    }
}

/// An index of skills for ranking.
pub struct Ranker<'s> {
    skills: Vec<&'s Skill>,
}

impl<'s> Ranker<'s> {
    /// Indexes `skills`.
    pub fn new(skills: &[&'s Skill]) -> Ranker<'s> {
        Ranker {
            skills: skills.to_vec(),
        }
    }

    /// Every skill with its score for `task`, best first (ties by name);
    /// skills that hold none of the task's words score 0.
    pub fn rank(&self, task: &str) -> Vec<(&'s Skill, f64)> {
        let mut query = terms(task);
        query.sort();
        query.dedup();
        let names = Field::new(self.skills.iter().map(|s| s.meta.name.as_str()), &query);
        let descriptions = Field::new(
            self.skills.iter().map(|s| s.meta.description.as_str()),
            &query,
        );
        let mut ranked: Vec<(&'s Skill, f64)> = (0..self.skills.len())
            .map(|i| {
                let score = NAME_WEIGHT * names.score(i) + descriptions.score(i);
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
