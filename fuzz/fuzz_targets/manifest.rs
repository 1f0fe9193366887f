//! `skills.toml` is written by hand, so any text must be refused or accepted
//! without panicking. An accepted manifest must be editable the way `add`
//! and `remove` edit it (the format-preserving editor): replacing a skill,
//! adding one and removing one each give text that parses again, with
//! exactly the change made and every other setting as it was.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use skillpkg::manifest::edit::ManifestDocument;
use skillpkg::manifest::{DependencySpec, DetailedSpec, Manifest};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("skills.toml");
    let Ok(manifest) = Manifest::parse(text, path) else {
        return;
    };
    let mut doc = ManifestDocument::parse(text, path).expect("an accepted manifest opens for editing");
    let mut expected = manifest.clone();

    let check = |doc: &ManifestDocument, expected: &Manifest, step: &str| {
        let edited = doc.to_text();
        let reparsed = Manifest::parse(&edited, path)
            .unwrap_or_else(|e| panic!("after {step}, the manifest no longer parses: {e:#}\n{edited}"));
        assert_eq!(&reparsed, expected, "after {step}:\n{edited}");
    };

    // `add` of a skill already there: a new requirement in its place.
    let first = manifest.skills.keys().next().cloned();
    if let Some(name) = &first {
        let spec = DependencySpec::Version("^1.2".into());
        doc.set_dependency(name, &spec).expect("replacing a skill");
        expected.skills.insert(name.clone(), spec);
        check(&doc, &expected, "replacing a skill");
    }

    // `add` of a new skill, in the table form.
    let spec = DependencySpec::Detailed(DetailedSpec {
        version: Some("2".into()),
        registry: Some("internal".into()),
        ..Default::default()
    });
    doc.set_dependency("fuzz/added", &spec).expect("adding a skill");
    expected.skills.insert("fuzz/added".into(), spec);
    check(&doc, &expected, "adding a skill");

    // `remove`.
    if let Some(name) = &first {
        assert!(doc.remove_dependency(name).expect("removing a skill"));
        expected.skills.remove(name);
        check(&doc, &expected, "removing a skill");
    }
    assert!(doc.remove_dependency("fuzz/added").expect("removing a skill"));
    expected.skills.remove("fuzz/added");
    check(&doc, &expected, "removing the added skill");
});
