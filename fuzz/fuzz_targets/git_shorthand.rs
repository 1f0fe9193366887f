//! `github:owner/repo[/path][@rev]` and `gitlab:…` short forms are typed
//! by users and copied from READMEs and `npx skills` instructions, and
//! `add` and `remove` expand them (`manifest::shorthand::expand`). Any
//! text must be expanded or refused without panicking, and an expansion
//! must be one repository on the named host: its URL is
//! `https://HOST/OWNER/REPO` with two plain segments (not empty, not `.`
//! or `..`), its folder is plain segments too, and the short form written
//! back from it expands to the same thing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpkg::manifest::shorthand::expand;

const HOSTS: [(&str, &str); 2] = [("github:", "github.com"), ("gitlab:", "gitlab.com")];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Every input with a host's prefix is taken as a short form, and
    // also the same text behind each prefix.
    check(text);
    for (prefix, _) in HOSTS {
        check(&format!("{prefix}{text}"));
    }
});

fn check(text: &str) {
    let expanded = match expand(text) {
        None => {
            assert!(
                !HOSTS.iter().any(|(p, _)| text.starts_with(p)),
                "{text:?} has a short form's prefix but was not taken as one"
            );
            return;
        }
        Some(Err(message)) => {
            assert!(
                message.contains(text),
                "the error does not quote {text:?}: {message}"
            );
            return;
        }
        Some(Ok(expanded)) => expanded,
    };
    let (prefix, host) = HOSTS
        .iter()
        .find(|(p, _)| text.starts_with(p))
        .expect("a short form has a host's prefix");
    let plain =
        |part: &str| !part.is_empty() && part != "." && part != ".." && !part.contains(['/', '\\']);
    let path = expanded
        .url
        .strip_prefix(&format!("https://{host}/"))
        .unwrap_or_else(|| panic!("{text:?} expanded to {}, not on {host}", expanded.url));
    let segments: Vec<&str> = path.split('/').collect();
    assert!(
        segments.len() == 2 && segments.iter().all(|s| plain(s)),
        "{text:?} expanded to {}, not https://{host}/OWNER/REPO",
        expanded.url
    );
    if let Some(subdir) = &expanded.subdir {
        assert!(
            subdir.split('/').all(plain),
            "{text:?} gave the folder {subdir:?}"
        );
    }
    if let Some(rev) = &expanded.rev {
        assert!(!rev.is_empty(), "{text:?} gave an empty revision");
    }

    // Written back, the short form expands to the same thing.
    let mut again = format!("{prefix}{}/{}", segments[0], segments[1]);
    if let Some(subdir) = &expanded.subdir {
        again.push('/');
        again.push_str(subdir);
    }
    if let Some(rev) = &expanded.rev {
        again.push('@');
        again.push_str(rev);
    }
    let reread = expand(&again)
        .expect("a short form")
        .unwrap_or_else(|e| panic!("{text:?} expanded, written back as {again:?}: {e}"));
    assert_eq!(reread, expanded, "{text:?} written back as {again:?}");
}
