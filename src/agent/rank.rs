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
use std::sync::Arc;

/// How much a repeated word adds before it saturates.
const K1: f64 = 1.2;
/// How much a long field is damped.
const B: f64 = 0.75;
/// How much a match in the name counts against one in the description.
const NAME_WEIGHT: f64 = 2.0;

/// British endings and the American ones they are folded into before
/// stemming, so that `summarise` and `summarize`, `colour` and `color`,
/// `analyse` and `analyze`, `centre` and `center` meet. Applied to
/// documents and queries alike, so a word they fold by mistake is folded
/// the same way on both sides.
const SPELLINGS: [(&str, &str, usize); 21] = [
    // (ending, replacement, letters the word must keep before it)
    ("isations", "izations", 2),
    ("isation", "ization", 2),
    ("ising", "izing", 2),
    ("isers", "izers", 2),
    ("iser", "izer", 2),
    ("ised", "ized", 2),
    ("ises", "izes", 2),
    ("ise", "ize", 2),
    ("ysing", "yzing", 2),
    ("ysed", "yzed", 2),
    ("yses", "yzes", 2),
    ("yser", "yzer", 2),
    ("yse", "yze", 2),
    ("ourites", "orites", 3),
    ("ourite", "orite", 3),
    ("ouring", "oring", 3),
    ("oured", "ored", 3),
    ("ours", "ors", 3),
    ("our", "or", 3),
    ("tres", "ters", 2),
    ("tre", "ter", 2),
];

/// The Snowball English stemmer, made once.
fn stemmer() -> &'static rust_stemmers::Stemmer {
    static STEMMER: std::sync::OnceLock<rust_stemmers::Stemmer> = std::sync::OnceLock::new();
    STEMMER.get_or_init(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English))
}

/// `word` (lowercase) with a British ending folded into the American
/// one; the first ending of [`SPELLINGS`] that fits wins.
fn fold_spelling(word: &str) -> std::borrow::Cow<'_, str> {
    for (ending, american, keep) in SPELLINGS {
        if let Some(stem) = word.strip_suffix(ending)
            && stem.chars().count() >= keep
        {
            return format!("{stem}{american}").into();
        }
    }
    word.into()
}

/// The matched words of `text`: lowercase alphanumeric runs of two or
/// more characters, British spellings folded, a plural `s` dropped, then
/// stemmed (Snowball
/// English), so `PDFs` is `pdf` and `summarise`, `summarizing` and
/// `summary` meet.
pub(crate) fn terms(text: &str) -> Vec<String> {
    shared_terms(text).iter().map(|t| t.to_string()).collect()
}

/// [`terms`], each shared with every other text holding it.
fn shared_terms(text: &str) -> Vec<Arc<str>> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(term)
        .collect()
}

/// Words a thread remembers the terms of, at most: descriptions share most
/// of their words, and stemming is most of the cost of indexing them.
const REMEMBERED: usize = 50_000;

/// The term of the lowercase `word`, remembered per thread.
fn term(word: &str) -> Arc<str> {
    thread_local! {
        static TERMS: std::cell::RefCell<std::collections::HashMap<String, Arc<str>>> =
            Default::default();
    }
    TERMS.with_borrow_mut(|known| {
        if let Some(term) = known.get(word) {
            return term.clone();
        }
        let term: Arc<str> = stemmer().stem(drop_plural(&fold_spelling(word))).into();
        if known.len() >= REMEMBERED {
            known.clear();
        }
        known.insert(word.to_string(), term.clone());
        term
    })
}

/// `word` without a plural `s` the stemmer keeps on short words (`pdfs`
/// is `pdf`): a word of four or more letters whose last two are not `ss`.
fn drop_plural(word: &str) -> &str {
    match word.strip_suffix('s') {
        Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem,
        _ => word,
    }
}

/// One field of every skill, scored for one query: how often each of the
/// query's terms occurs in each skill's field, how many terms each field
/// holds, and how many skills hold each query term. One pass over the
/// skills' terms, which the [`Ranker`] computed once.
struct Field {
    /// Per skill, the count of each query term (in the query's order).
    counts: Vec<Vec<usize>>,
    lengths: Vec<usize>,
    average_length: f64,
    /// Per query term, the skills whose field holds it.
    frequency: Vec<usize>,
}

impl Field {
    /// The field whose terms, per skill, are `documents`, for the sorted
    /// `query`.
    fn new<'t>(documents: impl Iterator<Item = &'t [Arc<str>]>, query: &[String]) -> Field {
        let mut counts = Vec::new();
        let mut lengths = Vec::new();
        let mut frequency = vec![0; query.len()];
        for document in documents {
            let mut held = vec![0; query.len()];
            for term in document {
                if let Ok(at) = query.binary_search_by(|q| q.as_str().cmp(term)) {
                    held[at] += 1;
                }
            }
            for (held, df) in held.iter().zip(&mut frequency) {
                *df += usize::from(*held > 0);
            }
            counts.push(held);
            lengths.push(document.len());
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

/// A skill's name and description as terms, stemmed once when the
/// [`Ranker`] is made.
struct Document {
    name: Vec<Arc<str>>,
    description: Vec<Arc<str>>,
}

/// An index of skills for ranking: each skill's terms, computed once and
/// reused for every task ranked.
pub(crate) struct Ranker<'s> {
    skills: Vec<&'s Skill>,
    documents: Vec<Document>,
}

impl<'s> Ranker<'s> {
    /// Indexes `skills`.
    pub(crate) fn new(skills: &[&'s Skill]) -> Ranker<'s> {
        Ranker {
            skills: skills.to_vec(),
            documents: crate::parallel::map_slice(skills, 256, |s| Document {
                name: shared_terms(&s.meta.name),
                description: shared_terms(&s.meta.description),
            }),
        }
    }

    /// Every skill with its score for `task`, best first (ties by name);
    /// skills that hold none of the task's terms score 0.
    pub(crate) fn rank(&self, task: &str) -> Vec<(&'s Skill, f64)> {
        let mut query = terms(task);
        query.sort();
        query.dedup();
        let names = Field::new(self.documents.iter().map(|d| d.name.as_slice()), &query);
        let descriptions = Field::new(
            self.documents.iter().map(|d| d.description.as_slice()),
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
#[allow(clippy::print_stderr)] // tests say when they skip
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
        assert_eq!(terms("PDFs and classes"), ["pdf", "and", "class"]);
    }

    /// The skills of the folders in `root` (each holding a `SKILL.md`).
    fn skills_in(root: &std::path::Path) -> Vec<Skill> {
        let mut dirs: Vec<_> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|d| d.join("SKILL.md").is_file())
            .collect();
        dirs.sort();
        dirs.iter()
            .map(|d| crate::skill::load_skill(d).unwrap())
            .collect()
    }

    /// The names of the three best-ranked skills of `skills` for `task`.
    fn top3(skills: &[Skill], task: &str) -> Vec<String> {
        let refs: Vec<&Skill> = skills.iter().collect();
        Ranker::new(&refs)
            .rank(task)
            .into_iter()
            .take(3)
            .map(|(s, _)| s.meta.name.clone())
            .collect()
    }

    #[test]
    fn tasks_rank_the_right_sample_skills_first() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut skills = skills_in(&repo.join("sample-skills"));
        skills.extend(skills_in(&repo.join("skills")));
        assert_eq!(skills.len(), 5, "the sample skills and the builtin ones");
        #[rustfmt::skip]
        let table: &[(&str, [&str; 3])] = &[
            ("summarize report.pdf", ["pdf-processing", "report-writer", "finding-skills"]),
            ("summarise report.pdf", ["pdf-processing", "report-writer", "finding-skills"]),
            ("summarizing documents into a brief", ["pdf-processing", "report-writer", "citation-style"]),
            ("extracting text from scanned PDFs", ["pdf-processing", "report-writer", "finding-skills"]),
            ("what does this PDF document say", ["pdf-processing", "report-writer", "finding-skills"]),
            ("write a memo from my notes with citations", ["report-writer", "citation-style", "skill-authoring"]),
            ("format the bibliography in author-date style", ["citation-style", "skill-authoring", "pdf-processing"]),
            ("cite this source", ["citation-style", "report-writer", "finding-skills"]),
            ("validate my new skill and publish it", ["skill-authoring", "finding-skills", "pdf-processing"]),
            ("which skills are available", ["finding-skills", "skill-authoring", "citation-style"]),
        ];
        for (task, expected) in table {
            assert_eq!(top3(&skills, task), expected, "{task:?}");
        }
    }

    #[test]
    fn tasks_rank_the_right_corpus_skills_first() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus/anthropics-skills");
        if !root.is_dir() {
            assert!(
                std::env::var_os("CI").is_none(),
                "the skills corpus must be at {} under CI",
                root.display()
            );
            eprintln!(
                "SKIPPED: the skills corpus is not at {}; the corpus ranking table did not run",
                root.display()
            );
            return;
        }
        let skills = skills_in(&root);
        #[rustfmt::skip]
        let table: &[(&str, [&str; 3])] = &[
            ("create generative art with p5.js", ["algorithmic-art", "theme-factory", "skill-creator"]),
            ("apply anthropic brand colours", ["brand-guidelines", "theme-factory", "claude-api"]),
            ("build an MCP server", ["mcp-builder", "frontend-design", "claude-api"]),
            ("test my web app with playwright", ["webapp-testing", "web-artifacts-builder", "skill-creator"]),
            ("make an animated gif for slack", ["slack-gif-creator", "frontend-design", "skill-creator"]),
            ("write a status update for the company newsletter", ["internal-comms", "claude-api", "brand-guidelines"]),
            ("apply a theme to my slides", ["theme-factory", "internal-comms", "brand-guidelines"]),
            ("optimise the skill description", ["skill-creator", "internal-comms", "claude-api"]),
            ("build a react artifact with tailwind", ["web-artifacts-builder", "theme-factory", "frontend-design"]),
        ];
        for (task, expected) in table {
            assert_eq!(top3(&skills, task), expected, "{task:?}");
        }
    }

    #[test]
    fn british_spellings_fold_into_american_ones_before_stemming() {
        for (british, american) in [
            ("summarise", "summarize"),
            ("summarised", "summarized"),
            ("organisation", "organization"),
            ("colours", "colors"),
            ("analyse", "analyze"),
            ("centre", "center"),
            ("favourite", "favorite"),
        ] {
            assert_eq!(terms(british), terms(american), "{british}");
        }
        assert_ne!(terms("hour"), terms("hor"));
        assert_eq!(fold_spelling("your"), "your");
    }
}
