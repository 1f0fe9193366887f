//! Explaining a failed resolution in sentences.
//!
//! pubgrub proves that no solution exists with a derivation tree: external
//! facts (the project requires this, that version requires that, there are
//! no usable versions of something) combined step by step into the
//! conclusion that the project cannot be resolved. pubgrub's
//! [`DefaultStringReporter`] walks that tree and numbers the steps that are
//! used twice; [`Explainer`] supplies the wording, so that every line is a
//! sentence about packages and requirements as the user wrote them:
//!
//! ```text
//! Because your project requires example/cite ^2 and every version of example/report-writer requires example/cite ^1, your project cannot use any version of example/report-writer.
//! And because your project requires any version of example/report-writer, the requirements of your project cannot be met together.
//! ```
//!
//! The project is never shown with a version; requirements are shown as
//! written (`^2`, not `>=2.0.0, <3.0.0`) when the range is one a requirement
//! in the project or the index spells; and a package with no usable version
//! says why: it is not in the index, no version matches, or the versions
//! that match are yanked or pre-releases.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use pubgrub::{
    DefaultStringReporter, DerivationTree, Derived, External, Map, Ranges, ReportFormatter,
    Reporter, Term,
};
use semver::{Version, VersionReq};

use super::wording::{MAX_SEGMENTS, join, join_and, list_versions, low, render_range};
use super::{Candidate, MAX_CANDIDATES, Pkg, Provider, req_to_ranges};

type Range = Ranges<Version>;
type Tree = DerivationTree<Pkg, Range, String>;
type Ext = External<Pkg, Range, String>;
type Terms = Map<Pkg, Term<Range>>;

/// The deepest proof explained step by step; a deeper one (a hostile index
/// can chain thousands of packages) is summarised by its facts, walked
/// without recursion.
const MAX_EXPLAINED_DEPTH: usize = 64;
/// The most lines an explanation keeps: the first ones and the conclusion.
const MAX_LINES: usize = 40;
/// The most facts a summary of a deep proof lists.
const MAX_FACTS: usize = 20;

/// Explains in sentences why `tree` (pubgrub's proof that the requirements
/// of `provider` have no solution) holds. The last line is the conclusion.
/// The text is bounded whatever the index holds.
pub(super) fn explain(provider: &Provider<'_>, tree: &Tree) -> String {
    let explainer = Explainer::new(provider);
    if depth(tree) > MAX_EXPLAINED_DEPTH {
        return explainer.summarise(tree);
    }
    let tree = explainer.simplify(tree);
    let text = match &tree {
        // pubgrub always derives the root's failure, but a lone fact reads too.
        DerivationTree::External(external) => format!(
            "Because {}, {}.",
            explainer.external(external),
            explainer.conclusion()
        ),
        DerivationTree::Derived(_) => {
            DefaultStringReporter::report_with_formatter(&tree, &explainer)
        }
    };
    truncate_lines(&text)
}

/// The depth of `tree`, measured without recursion. Steps a proof uses
/// twice are shared, so each is measured once.
fn depth(tree: &Tree) -> usize {
    let mut depths: std::collections::HashMap<*const Tree, usize> = Default::default();
    let mut stack = vec![(tree, false)];
    while let Some((node, causes_measured)) = stack.pop() {
        let key: *const Tree = node;
        if depths.contains_key(&key) {
            continue;
        }
        match node {
            DerivationTree::External(_) => {
                depths.insert(key, 1);
            }
            DerivationTree::Derived(derived) if causes_measured => {
                let cause = |tree: &Arc<Tree>| depths[&Arc::as_ptr(tree)];
                let depth = 1 + cause(&derived.cause1).max(cause(&derived.cause2));
                depths.insert(key, depth);
            }
            DerivationTree::Derived(derived) => {
                stack.push((node, true));
                stack.push((&derived.cause1, false));
                stack.push((&derived.cause2, false));
            }
        }
    }
    depths[&(tree as *const Tree)]
}

/// The first lines of `text` and its last (the conclusion), saying how
/// many were left out between.
fn truncate_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MAX_LINES {
        return text.to_string();
    }
    let kept = &lines[..MAX_LINES - 1];
    let left_out = lines.len() - MAX_LINES;
    format!(
        "{}\n… ({left_out} more lines of the explanation left out)\n{}",
        kept.join("\n"),
        lines[lines.len() - 1]
    )
}

/// The wording of a resolution failure, for one provider.
struct Explainer<'a> {
    /// What was resolved: the universe, the locked versions and which
    /// packages may use pre-releases.
    provider: &'a Provider<'a>,
    /// Requirements as written, by (dependent, dependency): the range each
    /// one admits and its text. A dependent lists one entry per distinct
    /// requirement among its versions; several requirements one version
    /// places on a package are joined with `, ` as they are intersected.
    written: BTreeMap<(Pkg, String), Vec<(Range, String)>>,
}

impl<'a> Explainer<'a> {
    fn new(provider: &'a Provider<'a>) -> Self {
        let mut written: BTreeMap<(Pkg, String), Vec<(Range, String)>> = BTreeMap::new();
        let mut record = |dependent: &Pkg, deps: &[(String, VersionReq)]| {
            // Mirrors `Provider::constraints`: one range per package.
            let mut merged: BTreeMap<&str, (Range, Vec<String>)> = BTreeMap::new();
            for (name, req) in deps {
                let (range, texts) = merged
                    .entry(name.as_str())
                    .or_insert_with(|| (Range::full(), Vec::new()));
                *range = range.intersection(&req_to_ranges(req));
                texts.push(req.to_string());
            }
            for (name, (range, texts)) in merged {
                let entry = written
                    .entry((dependent.clone(), name.to_string()))
                    .or_default();
                let text = texts.join(", ");
                if !entry.iter().any(|(r, t)| r == &range && t == &text) {
                    entry.push((range, text));
                }
            }
        };
        record(&Pkg::Root, provider.root);
        for (name, candidates) in &provider.universe.packages {
            let dependent = Pkg::Named(name.clone());
            for candidate in candidates {
                record(&dependent, &candidate.dependencies);
            }
        }
        Explainer { provider, written }
    }

    // Simplification ##########################################################

    /// Removes the steps that only say a version range of a package contains
    /// no versions at all, widening the package's range in the step they
    /// combine with instead: "there is no version of a in >1.0.0, <2.0.0"
    /// and "a 1.0.0 requires b ^1" become "every version of a matching ^1
    /// requires b ^1". Since no version of the package lies in the removed
    /// range, the widened statements are equivalent.
    ///
    /// Unlike pubgrub's `collapse_no_versions`, a range that does hold
    /// versions (yanked ones, pre-releases), a package missing from the
    /// index, and a range the package is *required* to be in are kept: they
    /// are the reason for the failure and the report names them.
    fn simplify(&self, tree: &Tree) -> Tree {
        let DerivationTree::Derived(derived) = tree else {
            return tree.clone();
        };
        let cause1 = self.simplify(&derived.cause1);
        let cause2 = self.simplify(&derived.cause2);
        for (no_versions, other) in [(&cause1, &cause2), (&cause2, &cause1)] {
            if let DerivationTree::External(External::NoVersions(package, range)) = no_versions
                && self.holds_no_versions(package, range)
                && matches!(derived.terms.get(package), Some(Term::Positive(_)))
                && constrains_dependent(other, package)
            {
                return widen(other, package, range);
            }
        }
        DerivationTree::Derived(Derived {
            terms: derived.terms.clone(),
            shared_id: derived.shared_id,
            cause1: Arc::new(cause1),
            cause2: Arc::new(cause2),
        })
    }

    /// A proof too deep to explain step by step, as the facts it rests on
    /// (found without recursion, the first [`MAX_FACTS`] of them) and its
    /// conclusion.
    fn summarise(&self, tree: &Tree) -> String {
        let mut facts: Vec<String> = Vec::new();
        let mut total = 0;
        let mut seen = BTreeSet::new();
        let mut visited: std::collections::HashSet<*const Tree> = Default::default();
        let mut stack = vec![tree];
        while let Some(node) = stack.pop() {
            if !visited.insert(node as *const Tree) {
                continue;
            }
            match node {
                DerivationTree::External(External::NotRoot(..)) => {}
                // "no version of x matches <1.0.0 or >1.0.0": only bounds
                // the steps, saying nothing a user can act on.
                DerivationTree::External(External::NoVersions(package, range))
                    if self.holds_no_versions(package, range) => {}
                DerivationTree::External(external) => {
                    total += 1;
                    if facts.len() < MAX_FACTS {
                        let fact = self.external(external);
                        if seen.insert(fact.clone()) {
                            facts.push(fact);
                        }
                    }
                }
                DerivationTree::Derived(derived) => {
                    stack.push(&derived.cause2);
                    stack.push(&derived.cause1);
                }
            }
        }
        let mut text =
            String::from("The requirements rest on a chain too long to explain step by step:\n");
        for fact in &facts {
            text.push_str(&format!("- {fact}\n"));
        }
        if total > facts.len() {
            text.push_str(&format!("- … and {} more facts\n", total - facts.len()));
        }
        text.push_str(&format!("So {}.", self.conclusion()));
        text
    }

    /// Whether `package` is in the index but has no version at all in `range`.
    fn holds_no_versions(&self, package: &Pkg, range: &Range) -> bool {
        let Pkg::Named(name) = package else {
            return false;
        };
        self.provider
            .universe
            .packages
            .get(name)
            .is_some_and(|all| all.iter().all(|c| !range.contains(&c.version)))
    }

    // Wording #################################################################

    /// The final conclusion.
    fn conclusion(&self) -> &'static str {
        let names: BTreeSet<&str> = self.provider.root.iter().map(|(n, _)| n.as_str()).collect();
        if names.len() > 1 {
            "the requirements of your project cannot be met together"
        } else {
            "the requirement of your project cannot be met"
        }
    }

    /// A requirement on `package` admitting `range`, as written by
    /// `dependent` if it wrote one, else by anyone, else rendered.
    fn requirement(&self, dependent: Option<&Pkg>, package: &Pkg, range: &Range) -> String {
        self.written(dependent, package, range)
            .unwrap_or_else(|| render_range(range))
    }

    /// The text of a requirement on `package` that admits exactly `range`:
    /// as `dependent` wrote it if it did, else as anyone did. A range of
    /// several parts each written somewhere reads "^1 or ^3".
    fn written(&self, dependent: Option<&Pkg>, package: &Pkg, range: &Range) -> Option<String> {
        let Pkg::Named(name) = package else {
            return None;
        };
        let find = |range: &Range| {
            let same = |(r, _): &&(Range, String)| r == range;
            dependent
                .and_then(|d| self.written.get(&(d.clone(), name.clone())))
                .and_then(|texts| texts.iter().find(same))
                .or_else(|| {
                    self.written
                        .iter()
                        .filter(|((_, dep), _)| dep == name)
                        .find_map(|(_, texts)| texts.iter().find(same))
                })
                .map(|(_, text)| text.clone())
        };
        if let Some(text) = find(range) {
            return Some(text);
        }
        let segments = range.iter().count();
        if !(2..=MAX_SEGMENTS).contains(&segments) {
            return None;
        }
        let parts = range
            .iter()
            .map(|(low, high)| find(&Range::from_range_bounds((low.clone(), high.clone()))))
            .collect::<Option<Vec<_>>>()?;
        Some(parts.join(" or "))
    }

    /// How to name the versions of `package` in `range` that something is
    /// said of: the range as a requirement spells it, or the versions in
    /// the index it holds when they are few.
    fn versions(&self, package: &Pkg, range: &Range) -> Versions {
        if range == &Range::full() {
            return Versions::All;
        }
        if let Some(version) = range.as_singleton() {
            return Versions::One(version.clone());
        }
        if let Some(text) = self.written(None, package, range) {
            return Versions::Matching(text);
        }
        let mut existing: Vec<Version> = match package {
            Pkg::Named(name) => self
                .provider
                .universe
                .packages
                .get(name)
                .into_iter()
                .flatten()
                .map(|c| c.version.clone())
                .filter(|v| range.contains(v))
                .collect(),
            Pkg::Root => Vec::new(),
        };
        existing.sort();
        existing.dedup();
        match existing.len() {
            1 => Versions::One(existing.remove(0)),
            2..=3 => Versions::Few(existing),
            _ => Versions::Matching(render_range(range)),
        }
    }

    /// `package` in `range` as the thing something requires: "example/cite
    /// ^2", "example/pdf 1.2.0", "any version of example/pdf".
    fn object(&self, dependent: Option<&Pkg>, package: &Pkg, range: &Range) -> String {
        match package {
            Pkg::Root => package.to_string(),
            Pkg::Named(_) if range == &Range::full() => format!("any version of {package}"),
            Pkg::Named(_) => format!("{package} {}", self.requirement(dependent, package, range)),
        }
    }

    /// `package` in `range` as something that cannot be used: "any version
    /// of example/a", "example/a 1.0.0", "example/a ^1", "example/a 1.0.0
    /// or 1.1.0".
    fn used(&self, package: &Pkg, range: &Range) -> String {
        match (package, self.versions(package, range)) {
            (Pkg::Root, _) => package.to_string(),
            (_, Versions::All) => format!("any version of {package}"),
            (_, Versions::One(v)) => format!("{package} {v}"),
            (_, Versions::Matching(text)) => format!("{package} {text}"),
            (_, Versions::Few(vs)) => format!("{package} {}", join(&vs, "or")),
        }
    }

    /// `package` in `range` as the subject of a sentence with a singular
    /// verb: "your project", "example/a 1.0.0", "every version of
    /// example/a matching ^1", "each of example/a 1.0.0 and 1.1.0".
    fn subject(&self, package: &Pkg, range: &Range) -> String {
        match (package, self.versions(package, range)) {
            (Pkg::Root, _) => package.to_string(),
            (_, Versions::All) => format!("every version of {package}"),
            (_, Versions::One(v)) => format!("{package} {v}"),
            (_, Versions::Matching(text)) => format!("every version of {package} matching {text}"),
            (_, Versions::Few(vs)) => format!("each of {package} {}", join(&vs, "and")),
        }
    }

    /// "`package` in `range` cannot be used".
    fn unusable(&self, package: &Pkg, range: &Range) -> String {
        match (package, self.versions(package, range)) {
            (Pkg::Root, _) => self.conclusion().to_string(),
            (_, Versions::All) => format!("no version of {package} can be used"),
            (_, Versions::One(v)) => format!("{package} {v} cannot be used"),
            (_, Versions::Matching(text)) => {
                format!("no version of {package} matching {text} can be used")
            }
            (_, Versions::Few(vs)) => format!("none of {package} {} can be used", join(&vs, "and")),
        }
    }

    /// "`dependent` in `range` requires `package` in `required`".
    fn requires(&self, dependent: &Pkg, range: &Range, package: &Pkg, required: &Range) -> String {
        format!(
            "{} requires {}",
            self.subject(dependent, range),
            self.object(Some(dependent), package, required)
        )
    }

    /// Why `package` has no usable version in `range`, from the index.
    fn no_versions(&self, package: &Pkg, range: &Range) -> String {
        let Pkg::Named(name) = package else {
            return self.conclusion().to_string();
        };
        let Some(candidates) = self.provider.universe.packages.get(name) else {
            return format!("{name} is not in the index");
        };
        let full = range == &Range::full();
        let of = if full {
            format!("of {name}")
        } else {
            format!(
                "of {name} matching {}",
                self.requirement(None, package, range)
            )
        };
        let matching: Vec<&Candidate> = candidates
            .iter()
            .filter(|c| range.contains(&c.version))
            .collect();
        if matching.is_empty() {
            return if full {
                format!("{name} has no versions in the index")
            } else {
                let mut usable: Vec<&Version> =
                    self.provider.usable(name).map(|c| &c.version).collect();
                usable.sort();
                usable.dedup();
                let near = match nearest(range, &usable) {
                    near if near.is_empty() => String::new(),
                    near if near.len() == usable.len() => format!(" (it has {})", join_and(&near)),
                    near => format!(" (the versions nearest it: {})", join_and(&near)),
                };
                format!(
                    "no version of {name} matches {}{near}",
                    self.requirement(None, package, range)
                )
            };
        }
        if self
            .provider
            .usable(name)
            .any(|c| range.contains(&c.version))
        {
            // Not a reason pubgrub gives, but said plainly all the same.
            return format!("no version {of} can be used");
        }
        let locked = self.provider.locked.get(name);
        let yanked = |c: &&Candidate| c.yanked && Some(&c.version) != locked;
        let versions: Vec<&Version> = matching.iter().map(|c| &c.version).collect();
        let usable_anywhere = |c: &&Candidate| {
            !yanked(c) && (c.version.pre.is_empty() || self.provider.allow_pre.contains(name))
        };
        if matching.iter().any(usable_anywhere) {
            // Usable, but older than the newest versions resolution considers.
            return format!(
                "{name} has more than {MAX_CANDIDATES} versions, and only the newest {MAX_CANDIDATES} are considered; none of them matches {}",
                self.requirement(None, package, range)
            );
        }
        let (count, list) = (matching.len(), list_versions(&versions));
        let every = if count == 2 {
            "both versions".to_string()
        } else {
            format!("all {count} versions")
        };
        if matching.iter().all(yanked) {
            if count == 1 {
                format!("the only version {of} ({list}) is yanked")
            } else {
                format!("{every} {of} ({list}) are yanked")
            }
        } else if matching.iter().any(yanked) {
            format!("{every} {of} ({list}) are yanked or pre-releases")
        } else if count == 1 {
            format!(
                "the only version {of} ({list}) is a pre-release that no requirement on {name} asks for"
            )
        } else {
            format!("{every} {of} ({list}) are pre-releases that no requirement on {name} asks for")
        }
    }

    /// Two external facts joined with "and", in reading order; the fact
    /// that the project is being resolved goes without saying.
    fn both(&self, external1: &Ext, external2: &Ext) -> String {
        let (first, second) = reading_order(external1, external2);
        match (first, second) {
            (External::NotRoot(..), other) | (other, External::NotRoot(..)) => self.external(other),
            (
                External::FromDependencyOf(p1, r1, d1, s1),
                External::FromDependencyOf(p2, r2, d2, s2),
            ) if p1 == p2 && r1 == r2 => format!(
                "{} requires {} and {}",
                self.subject(p1, r1),
                self.object(Some(p1), d1, s1),
                self.object(Some(p2), d2, s2)
            ),
            _ => format!("{} and {}", self.external(first), self.external(second)),
        }
    }

    fn external(&self, external: &Ext) -> String {
        match external {
            External::NotRoot(..) => "your project is being resolved".to_string(),
            External::NoVersions(package, range) => self.no_versions(package, range),
            External::FromDependencyOf(dependent, range, package, required) => {
                self.requires(dependent, range, package, required)
            }
            External::Custom(package, range, why) => {
                format!("{} because {why}", self.unusable(package, range))
            }
        }
    }

    /// What a set of terms that cannot all hold says.
    fn terms(&self, terms: &Terms) -> String {
        let mut sorted: Vec<(&Pkg, &Term<Range>)> = terms.iter().collect();
        sorted.sort_by_key(|(package, _)| *package);
        let root = sorted
            .iter()
            .any(|(p, t)| **p == Pkg::Root && matches!(t, Term::Positive(_)));
        let mut positive = Vec::new();
        let mut negative = Vec::new();
        for (package, term) in sorted {
            match (package, term) {
                (Pkg::Root, _) => {}
                (_, Term::Positive(range)) => positive.push((package, range)),
                (_, Term::Negative(range)) => negative.push((package, range)),
            }
        }
        match (root, positive.as_slice(), negative.as_slice()) {
            (_, [], []) => self.conclusion().to_string(),
            (false, [(p, r)], []) => self.unusable(p, r),
            (false, [(p, r)], [(d, s)]) => self.requires(p, r, d, s),
            (true, [], [(d, s)]) => self.requires(&Pkg::Root, &Range::full(), d, s),
            (false, [], [(d, s)]) => format!("{} is needed", self.object(None, d, s)),
            (_, positive, []) => {
                let used: Vec<String> = positive.iter().map(|(p, r)| self.used(p, r)).collect();
                if root {
                    format!("your project cannot use {}", join_and(&used))
                } else {
                    format!("{} cannot be used together", join_and(&used))
                }
            }
            (_, positive, [(d, s)]) => {
                let mut users: Vec<String> = Vec::new();
                if root {
                    users.push(Pkg::Root.to_string());
                }
                users.extend(positive.iter().map(|(p, r)| self.used(p, r)));
                format!(
                    "{} together require {}",
                    join_and(&users),
                    self.object(None, d, s)
                )
            }
            (_, positive, negative) => {
                let mut parts: Vec<String> = Vec::new();
                if root {
                    parts.push(Pkg::Root.to_string());
                }
                parts.extend(positive.iter().map(|(p, r)| self.used(p, r)));
                parts.extend(
                    negative
                        .iter()
                        .map(|(p, r)| format!("a version of {p} outside {}", render_range(r))),
                );
                format!("{} cannot all be used together", join_and(&parts))
            }
        }
    }
}

/// How a range of a package's versions is named.
enum Versions {
    /// Every version.
    All,
    /// One version.
    One(Version),
    /// The versions a requirement (as written, or rendered) matches.
    Matching(String),
    /// The two or three versions in the index the range holds.
    Few(Vec<Version>),
}

/// Whether `tree` says something about `package` as a dependent, or as a
/// package that is used: a range `package` is then widened in.
/// Of `versions` (sorted, none in `range`), the few nearest `range`: the
/// newest three below it and the oldest three above it.
fn nearest(range: &Range, versions: &[&Version]) -> Vec<String> {
    use std::ops::Bound;
    const EACH_SIDE: usize = 3;
    let below = |v: &Version| match range.bounding_range() {
        Some((Bound::Included(start), _)) => v < start,
        Some((Bound::Excluded(start), _)) => v <= start,
        _ => false,
    };
    let split = versions
        .iter()
        .position(|v| !below(v))
        .unwrap_or(versions.len());
    let (under, over) = versions.split_at(split);
    under[under.len().saturating_sub(EACH_SIDE)..]
        .iter()
        .chain(over.iter().take(EACH_SIDE))
        .map(|v| v.to_string())
        .collect()
}

fn constrains_dependent(tree: &Tree, package: &Pkg) -> bool {
    match tree {
        DerivationTree::External(External::FromDependencyOf(dependent, ..)) => dependent == package,
        DerivationTree::External(_) => false,
        DerivationTree::Derived(derived) => {
            matches!(derived.terms.get(package), Some(Term::Positive(_)))
        }
    }
}

/// `tree` with every range `package` is used in (positive terms, dependency
/// edges from it) widened by `extra`, which holds none of its versions.
fn widen(tree: &Tree, package: &Pkg, extra: &Range) -> Tree {
    match tree {
        DerivationTree::External(External::FromDependencyOf(dependent, range, dep, required))
            if dependent == package =>
        {
            DerivationTree::External(External::FromDependencyOf(
                dependent.clone(),
                range.union(extra),
                dep.clone(),
                required.clone(),
            ))
        }
        DerivationTree::External(_) => tree.clone(),
        DerivationTree::Derived(derived) => {
            let mut terms = derived.terms.clone();
            if let Some(Term::Positive(range)) = terms.get_mut(package) {
                *range = range.union(extra);
            }
            DerivationTree::Derived(Derived {
                terms,
                // Other uses of a shared step still say the narrower thing.
                shared_id: None,
                cause1: Arc::new(widen(&derived.cause1, package, extra)),
                cause2: Arc::new(widen(&derived.cause2, package, extra)),
            })
        }
    }
}

/// `a` and `b` in the order they read best: the project's requirements
/// first, then what packages require (a chain in its order, else by
/// package and version), then what is unavailable; of two requirements of
/// one dependent, "any version" last.
fn reading_order<'e>(a: &'e Ext, b: &'e Ext) -> (&'e Ext, &'e Ext) {
    fn key(e: &Ext) -> (u8, Option<&Pkg>, Option<&Version>, bool, Option<&Pkg>) {
        match e {
            External::FromDependencyOf(dependent, range, dep, required) => (
                if *dependent == Pkg::Root { 0 } else { 1 },
                Some(dependent),
                low(range),
                required == &Range::full(),
                Some(dep),
            ),
            External::Custom(package, range, _) => (2, Some(package), low(range), false, None),
            External::NoVersions(package, range) => (3, Some(package), low(range), false, None),
            External::NotRoot(..) => (4, None, None, false, None),
        }
    }
    if let (
        External::FromDependencyOf(a_dependent, _, a_dep, _),
        External::FromDependencyOf(b_dependent, _, b_dep, _),
    ) = (a, b)
        && *a_dependent != Pkg::Root
        && *b_dependent != Pkg::Root
    {
        if a_dependent == b_dep && b_dependent != a_dep {
            return (b, a);
        }
        if b_dependent == a_dep {
            return (a, b);
        }
    }
    if key(b) < key(a) { (b, a) } else { (a, b) }
}

/// The lines of pubgrub's default report, reworded.
impl ReportFormatter<Pkg, Range, String> for Explainer<'_> {
    type Output = String;

    fn format_external(&self, external: &Ext) -> String {
        self.external(external)
    }

    fn format_terms(&self, terms: &Terms) -> String {
        self.terms(terms)
    }

    fn explain_both_external(
        &self,
        external1: &Ext,
        external2: &Ext,
        current_terms: &Terms,
    ) -> String {
        format!(
            "Because {}, {}.",
            self.both(external1, external2),
            self.terms(current_terms)
        )
    }

    fn explain_both_ref(
        &self,
        ref_id1: usize,
        derived1: &Derived<Pkg, Range, String>,
        ref_id2: usize,
        derived2: &Derived<Pkg, Range, String>,
        current_terms: &Terms,
    ) -> String {
        format!(
            "Because {} ({ref_id1}) and {} ({ref_id2}), {}.",
            self.terms(&derived1.terms),
            self.terms(&derived2.terms),
            self.terms(current_terms)
        )
    }

    fn explain_ref_and_external(
        &self,
        ref_id: usize,
        derived: &Derived<Pkg, Range, String>,
        external: &Ext,
        current_terms: &Terms,
    ) -> String {
        let because = match external {
            External::NotRoot(..) => format!("{} ({ref_id})", self.terms(&derived.terms)),
            _ => format!(
                "{} ({ref_id}) and {}",
                self.terms(&derived.terms),
                self.external(external)
            ),
        };
        format!("Because {because}, {}.", self.terms(current_terms))
    }

    fn and_explain_external(&self, external: &Ext, current_terms: &Terms) -> String {
        match external {
            External::NotRoot(..) => format!("So {}.", self.terms(current_terms)),
            _ => format!(
                "And because {}, {}.",
                self.external(external),
                self.terms(current_terms)
            ),
        }
    }

    fn and_explain_ref(
        &self,
        ref_id: usize,
        derived: &Derived<Pkg, Range, String>,
        current_terms: &Terms,
    ) -> String {
        format!(
            "And because {} ({ref_id}), {}.",
            self.terms(&derived.terms),
            self.terms(current_terms)
        )
    }

    fn and_explain_prior_and_external(
        &self,
        prior_external: &Ext,
        external: &Ext,
        current_terms: &Terms,
    ) -> String {
        format!(
            "And because {}, {}.",
            self.both(prior_external, external),
            self.terms(current_terms)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::Universe;
    use super::super::tests::{candidate, explain, universe};
    use super::*;

    #[test]
    fn unusable_versions_say_why() {
        let text = explain(&universe(), &[("example/pdf", "^9")]);
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because your project requires example/pdf ^9 and no version of example/pdf matches ^9 (it has 1.0.0 and 1.2.0), the requirement of your project cannot be met.
        ");
        // Of many versions, the ones nearest the requirement.
        let mut many = universe();
        many.packages.insert(
            "example/many".into(),
            [
                "0.1.0", "0.2.0", "1.0.0", "1.1.0", "1.2.0", "3.0.0", "3.1.0", "3.2.0", "4.0.0",
            ]
            .iter()
            .map(|v| candidate(v, &[], false))
            .collect(),
        );
        let text = explain(&many, &[("example/many", "^2.5")]);
        insta::assert_snapshot!(text, @"
        no versions satisfy the requirements:
        Because your project requires example/many ^2.5 and no version of example/many matches ^2.5 (the versions nearest it: 1.0.0, 1.1.0, 1.2.0, 3.0.0, 3.1.0 and 3.2.0), the requirement of your project cannot be met.
        ");

        let text = explain(&universe(), &[("example/cite", ">2.0.0")]);
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because your project requires example/cite >2.0.0 and the only version of example/cite matching >2.0.0 (2.1.0-beta.1) is a pre-release that no requirement on example/cite asks for, the requirement of your project cannot be met.
        ");

        // A dependency's requirement that only yanked versions match.
        let mut u = universe();
        u.packages.insert(
            "example/x".into(),
            vec![
                candidate("1.0.0", &[("example/pdf", ">=1.3")], false),
                candidate("1.1.0", &[("example/pdf", ">=1.3")], true),
            ],
        );
        u.packages
            .get_mut("example/pdf")
            .unwrap()
            .push(candidate("1.4.0", &[], true));
        let text = explain(&u, &[("example/x", "^1")]);
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because example/x 1.0.0 requires example/pdf >=1.3 and both versions of example/pdf matching >=1.3 (1.3.0 and 1.4.0) are yanked, example/x 1.0.0 cannot be used.
        And because your project requires example/x ^1 and the only version of example/x matching >1.0.0, <2.0.0 (1.1.0) is yanked, the requirement of your project cannot be met.
        ");
    }

    #[test]
    fn ranges_read_as_requirements_or_versions() {
        let mut u = Universe::default();
        u.packages.insert(
            "p".into(),
            vec![
                candidate("1.0.0", &[("q", "^1")], false),
                candidate("1.1.0", &[("q", "^1.1")], false),
                candidate("2.0.0", &[("q", "^3")], false),
            ],
        );
        u.packages.insert(
            "q".into(),
            vec![
                candidate("1.0.0", &[], false),
                candidate("2.0.0", &[], false),
            ],
        );
        let text = explain(&u, &[("p", "*"), ("q", "^2")]);
        insta::assert_snapshot!(text, @r"
        no versions satisfy the requirements:
        Because p 1.0.0 requires q ^1 and p 1.1.0 requires q ^1.1, each of p 1.0.0 and 1.1.0 requires q ^1.
        And because p 2.0.0 requires q ^3, every version of p requires q ^1 or ^3.
        And because your project requires q ^2 and any version of p, the requirements of your project cannot be met together.
        ");

        let v = |s: &str| Version::parse(s).unwrap();
        assert_eq!(render_range(&Range::full()), "any version");
        assert_eq!(render_range(&Range::singleton(v("1.2.0"))), "1.2.0");
        assert_eq!(
            render_range(&Range::between(v("1.0.0"), v("2.0.0"))),
            ">=1.0.0, <2.0.0"
        );
        assert_eq!(
            render_range(&Range::singleton(v("1.0.0")).complement()),
            "<1.0.0 or >1.0.0"
        );
    }
}
