use std::collections::BTreeSet;
use std::path::Path;

use super::*;
use crate::manifest::lock::{LockedSkill, Lockfile};
use crate::manifest::{Manifest, Source};
use crate::ops::pack::Validity;
use crate::store::limits::Limits;

/// One dependency of each kind: its `skills.toml` entry (`None` for the
/// registry, whose requests the resolver takes), a lock `source` of it,
/// and the kind's name.
const KINDS: [(Option<&str>, &str, &str); 5] = [
    (None, "registry+https://index.example.com", "registry"),
    (
        Some(r#"{ git = "https://github.com/acme/skills", subdir = "pdf" }"#),
        "git+https://github.com/acme/skills?subdir=pdf#0123456789abcdef0123456789abcdef01234567",
        "git",
    ),
    (
        Some(r#"{ oci = "ghcr.io/acme/pdf", tag = "1.0.0" }"#),
        "oci+ghcr.io/acme/pdf?tag=1.0.0#sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "oci",
    ),
    (
        Some(r#"{ well-known = "https://acme.example", skill = "pdf" }"#),
        "well-known+https://acme.example?skill=pdf#sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "well-known",
    ),
    (
        Some(r#"{ path = "skills/pdf" }"#),
        "path+skills/pdf",
        "path",
    ),
];

fn request(entry: &str) -> DirectSource {
    let text = format!("[skills]\npdf = {entry}\n");
    let manifest = Manifest::parse(&text, Path::new("skills.toml")).unwrap();
    match manifest.skills["pdf"].source("pdf").unwrap() {
        Source::Direct(request) => request,
        Source::Registry { .. } => panic!("{entry} is a registry dependency"),
    }
}

fn locked(source: &str) -> LockedSkill {
    let text = format!(
        "version = 1\n\n[[skill]]\nname = \"pdf\"\nversion = \"1.0.0\"\nsource = \"{source}\"\ntree = \"h1:t\"\n"
    );
    Lockfile::parse(&text, Path::new("skills.lock"))
        .unwrap()
        .skills()[0]
        .clone()
}

#[test]
fn every_kind_is_reached_through_the_traits_from_its_entry_and_its_lock_source() {
    let names: BTreeSet<&str> = ALL.iter().map(|kind| kind.name()).collect();
    assert_eq!(names.len(), ALL.len(), "two kinds share a name");
    let listed: BTreeSet<&str> = KINDS.iter().map(|(_, _, name)| *name).collect();
    assert_eq!(listed, names, "the table names every kind once");
    for kind in DIRECT {
        assert!(names.contains(kind.name()), "{} is in ALL", kind.name());
    }
    for (entry, source, name) in KINDS {
        let skill = locked(source);
        assert_eq!(of_pin(&skill.source).name(), name, "{source}");
        assert_eq!(
            direct_of_pin(&skill.source).map(|kind| kind.name()),
            entry.map(|_| name),
            "{source}"
        );
        let Some(entry) = entry else { continue };
        let request = request(entry);
        let kind = of_request(&request);
        assert_eq!(kind.name(), name, "{entry}");
        assert!(kind.pins(&skill.source));
        assert!(kind.same_place(&request, &request, Path::new(".")));
        // The lock's pin of the same request is kept, but a folder's: a
        // folder is read anew on every install.
        assert_eq!(kind.keeps("pdf", &request, &skill).unwrap(), name != "path");
        // No kind keeps another kind's pin.
        for (_, other, other_name) in KINDS.iter().filter(|k| k.2 != name) {
            assert!(
                !kind.keeps("pdf", &request, &locked(other)).unwrap(),
                "{other_name}"
            );
        }
    }
}

#[test]
fn each_kind_describes_its_pins_for_policies_sboms_and_messages() {
    let described: Vec<_> = KINDS
        .iter()
        .map(|(_, source, _)| {
            let skill = locked(source);
            let kind = of_pin(&skill.source);
            (
                kind.place(&skill.source),
                kind.owner(&skill.source),
                kind.reference(&skill.source)
                    .map(|(url, kind)| format!("{kind} {url}")),
            )
        })
        .collect();
    let some = |text: &str| Some(text.to_string());
    assert_eq!(
        described,
        [
            (
                some("https://index.example.com"),
                some("the index https://index.example.com"),
                some("distribution https://index.example.com")
            ),
            (
                some("https://github.com/acme/skills"),
                some("github.com/acme"),
                some("vcs https://github.com/acme/skills")
            ),
            (
                some("oci://ghcr.io/acme/pdf"),
                some("ghcr.io/acme"),
                some(
                    "distribution oci://ghcr.io/acme/pdf@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
                )
            ),
            (
                some("https://acme.example"),
                some("https://acme.example"),
                some("distribution https://acme.example")
            ),
            (None, None, None),
        ]
    );
}

#[test]
fn a_folder_is_fetched_through_its_kind_where_it_is() {
    let project = tempfile::tempdir().unwrap();
    let views = crate::ops::edit::Views::default();
    let fetching = Fetching {
        project_dir: project.path(),
        cache: &project.path().join("cache"),
        offline: true,
        staging: &project.path().join("staging"),
        validity: Validity::Reference,
        root: &project.path().join(".agents/skills"),
        git: &views.git,
        sites: &views.sites,
        registries: crate::oci::Settings {
            cache: project.path(),
            config: project.path(),
            home: None,
            offline: true,
            insecure: &[],
            limits: Limits::default(),
        },
        limits: Limits::default(),
        allow_signer_change: false,
    };
    let request = request(r#"{ path = "skills/pdf" }"#);
    let job = Job {
        name: "pdf",
        request: &request,
        locked: None,
        before: None,
        fetching: &fetching,
    };
    let fetched = of_request(&request).fetch(&job, project.path()).unwrap();
    assert_eq!(fetched.dir, project.path().join("skills/pdf"));
    assert_eq!(fetched.source.to_string(), "path+skills/pdf");
    assert_eq!(
        of_request(&request)
            .place_of_tree(&request, &fetched.dir, None)
            .unwrap(),
        project.path().join("skills/pdf").display().to_string()
    );
}
