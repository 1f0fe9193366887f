use super::*;

fn asked(packages: &[&str]) -> Asked {
    Asked {
        packages: packages.iter().map(|p| p.to_string()).collect(),
        offline: true,
        ..Asked::default()
    }
}

fn misuse_of(asked: Asked) -> String {
    let error = asked.request().unwrap_err();
    match error.downcast_ref::<Misuse>() {
        Some(misuse) => misuse.message.clone(),
        None => panic!("not a misuse: {error:#}"),
    }
}

#[test]
fn each_form_of_source_becomes_one_kind_neutral_request() {
    let source = |asked: Asked| asked.request().unwrap().source;
    assert_eq!(
        source(asked(&["acme/pdf", "acme/csv@^1"])),
        AddSource::Packages(vec!["acme/pdf".into(), "acme/csv@^1".into()])
    );
    assert_eq!(
        source(asked(&["github:anthropics/skills/skills/pdf@v1"])),
        AddSource::Git {
            url: "https://github.com/anthropics/skills".into(),
            rev: Some("v1".into()),
            subdir: Some("skills/pdf".into()),
            name: None,
        }
    );
    assert!(matches!(
        source(asked(&["oci://ghcr.io/acme/pdf:1.0.0"])),
        AddSource::Oci(reference) if reference.repository == "ghcr.io/acme/pdf"
    ));
    let by_flag = Asked {
        git: Some("https://example.com/r.git".into()),
        ..asked(&["mine"])
    };
    assert_eq!(
        source(by_flag),
        AddSource::Git {
            url: "https://example.com/r.git".into(),
            rev: None,
            subdir: None,
            name: Some("mine".into()),
        }
    );
    let folder = Asked {
        path: Some("skills/pdf".into()),
        ..asked(&[])
    };
    assert_eq!(
        source(folder),
        AddSource::Path {
            path: "skills/pdf".into(),
            name: None
        }
    );
    let site = Asked {
        well_known: Some("https://acme.example".into()),
        ..asked(&[])
    };
    assert_eq!(
        source(site),
        AddSource::WellKnown("https://acme.example".into())
    );
}

#[test]
fn two_sources_or_a_pick_from_none_are_misuses() {
    assert_eq!(
        misuse_of(asked(&["github:a/b", "github:c/d"])),
        "'github:a/b' and 'github:c/d' name two repositories; add one at a time"
    );
    let picks = Asked {
        skills: vec!["pdf".into()],
        ..asked(&["acme/pdf"])
    };
    assert!(misuse_of(picks).starts_with("--skill, --list, --rev and --subdir pick from"));
    let twice = Asked {
        git: Some("https://example.com/r.git".into()),
        ..asked(&["github:a/b"])
    };
    assert!(misuse_of(twice).starts_with("--git 'https://example.com/r.git' names the repository"));
    let site_and_names = Asked {
        well_known: Some("https://acme.example".into()),
        ..asked(&["pdf"])
    };
    assert_eq!(
        misuse_of(site_and_names),
        "--well-known 'https://acme.example' names the site, and 'pdf' is given too"
    );
    let oci_rev = Asked {
        rev: Some("main".into()),
        ..asked(&["oci://ghcr.io/acme/pdf:1"])
    };
    assert!(misuse_of(oci_rev).contains("names an OCI artifact"));
}

#[test]
fn a_signer_without_a_repository_is_refused() {
    let signed = Asked {
        signed_by: vec!["gpg:ABCD".into()],
        ..asked(&["acme/pdf"])
    };
    let error = format!("{:#}", signed.request().unwrap_err());
    assert!(
        error.contains("--signed-by names who signed a git commit"),
        "{error}"
    );
}
