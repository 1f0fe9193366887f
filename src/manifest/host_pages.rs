//! Pages of known hosts, as `npx skills` reads them: the revision is one
//! path segment (a branch whose name holds `/` is given with `--rev`, and
//! the rest of the path is then the folder, see `source_arg::GitSource::with_flags`);
//! a query (`?tab=readme`) or fragment is dropped; `.git` after the
//! repository's name is dropped; segments are percent-decoded.
//!
//! | host | repository | revision and folder |
//! |---|---|---|
//! | github.com | `/owner/repo` | `/tree/REV[/PATH]`; `/blob/REV/PATH/FILE` (the file's folder); `/commit/SHA` |
//! | gitlab.com | `/group[/subgroup…]/repo` | after `/-/`: `tree/REV[/PATH]`, `blob/REV/PATH/FILE`, `commit/SHA` |
//! | bitbucket.org | `/owner/repo` | `/src/REV[/PATH]` (a final `SKILL.md` dropped); `/commits/SHA` |
//! | codeberg.org | `/owner/repo` | `/src/branch/REV[/PATH]`, `/src/tag/…`, `/src/commit/…` (a final `SKILL.md` dropped); `/commit/SHA` |
//!
//! Their repositories are recorded as `https://HOST/PATH` (as short forms
//! are), with credentials the URL carried kept for git.

/// A repository a page names, with the revision and folder it shows.
#[derive(Debug)]
pub(super) struct PageSource {
    /// `https://HOST/PATH`, with the credentials the URL carried.
    pub url: String,
    /// The revision the page shows.
    pub rev: Option<String>,
    /// The folder the page shows.
    pub subdir: Option<String>,
    /// `REV` and `PATH` as one list of segments, so that `--rev
    /// feature/x` can take two of them.
    pub tree: Option<Vec<String>>,
}

/// Hosts whose pages map to repositories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Host {
    GitHub,
    GitLab,
    Bitbucket,
    Codeberg,
}

impl Host {
    /// The known host `name` is, with its canonical name.
    pub(super) fn of(name: &str) -> Option<(Host, &'static str)> {
        let name = name.to_ascii_lowercase();
        let name = name.strip_prefix("www.").unwrap_or(&name);
        [
            (Host::GitHub, "github.com"),
            (Host::GitLab, "gitlab.com"),
            (Host::Bitbucket, "bitbucket.org"),
            (Host::Codeberg, "codeberg.org"),
        ]
        .into_iter()
        .find(|(_, known)| *known == name)
    }
}

/// A page of a known host: its repository, and the revision and folder
/// the page shows.
pub(super) fn known_page(
    text: &str,
    host: Host,
    name: &str,
    userinfo: Option<&str>,
    path: &str,
) -> Result<PageSource, String> {
    let wrong = || {
        Err(format!(
            "'{text}' is no page of a repository skillpkg can read: write https://{name}/owner/repo, or a folder's page (…/{})",
            match host {
                Host::GitHub => "tree/REV/PATH",
                Host::GitLab => "-/tree/REV/PATH",
                Host::Bitbucket => "src/REV/PATH",
                Host::Codeberg => "src/branch/REV/PATH",
            }
        ))
    };
    let mut segments = Vec::new();
    for raw in path.split('/').filter(|s| !s.is_empty()) {
        let Ok(segment) = String::from_utf8(crate::net::percent_decode_bytes(raw)) else {
            return wrong();
        };
        if segment == "."
            || segment == ".."
            || segment.contains(['/', '\\'])
            || segment.chars().any(char::is_control)
        {
            return wrong();
        }
        segments.push(segment);
    }
    let (repo_len, page) = match host {
        Host::GitLab => match segments.iter().position(|s| s == "-") {
            Some(dash) => (dash, &segments[dash + 1..]),
            None => (segments.len(), &segments[segments.len()..]),
        },
        _ => (segments.len().min(2), &segments[segments.len().min(2)..]),
    };
    if repo_len < 2 {
        return wrong();
    }
    let mut repo: Vec<String> = segments[..repo_len].to_vec();
    let last = repo.last_mut().expect("two segments");
    if let Some(stripped) = last.strip_suffix(".git") {
        *last = stripped.to_string();
    }
    if last.is_empty() || last == "." || last == ".." {
        return wrong();
    }
    let Some(page) = read_page(host, page) else {
        return wrong();
    };
    let credentials = userinfo.map(|u| format!("{u}@")).unwrap_or_default();
    Ok(PageSource {
        url: format!("https://{credentials}{name}/{}", repo.join("/")),
        rev: page.rev,
        subdir: page.subdir,
        tree: page.tree,
    })
}

/// What a page shows: a revision, and a folder.
#[derive(Default)]
struct Page {
    rev: Option<String>,
    /// The revision and the folder as segments (see [`PageSource`]).
    tree: Option<Vec<String>>,
    subdir: Option<String>,
}

/// How the segments after a page's revision end.
enum Ends {
    /// With a folder.
    Folder,
    /// With a file: its folder is meant.
    File,
    /// With a folder, or its `SKILL.md` (one page kind shows both).
    FolderOrSkillMd,
}

/// What a page of `host` shows, from the segments after the
/// repository's; `None` for a page that is not one of a folder, a file
/// or a commit.
fn read_page(host: Host, page: &[String]) -> Option<Page> {
    let names: Vec<&str> = page.iter().map(String::as_str).collect();
    let (after, ends) = match (host, names.as_slice()) {
        (_, []) => return Some(Page::default()),
        (Host::GitHub | Host::GitLab, ["commit", sha])
        | (Host::Bitbucket, ["commits", sha])
        | (Host::Codeberg, ["commit", sha]) => {
            return Some(Page {
                rev: Some(sha.to_string()),
                ..Page::default()
            });
        }
        (Host::GitHub | Host::GitLab, ["tree", _, ..]) => (&page[1..], Ends::Folder),
        (Host::GitHub | Host::GitLab, ["blob", _, _, ..]) => (&page[1..], Ends::File),
        (Host::Bitbucket, ["src", _, ..]) => (&page[1..], Ends::FolderOrSkillMd),
        (Host::Codeberg, ["src", "branch" | "tag" | "commit", _, ..]) => {
            (&page[2..], Ends::FolderOrSkillMd)
        }
        _ => return None,
    };
    let mut tree: Vec<String> = after.to_vec();
    let skill_md = tree
        .last()
        .is_some_and(|file| file.eq_ignore_ascii_case("SKILL.md"));
    match ends {
        Ends::Folder => {}
        Ends::File => {
            tree.pop();
        }
        Ends::FolderOrSkillMd if tree.len() > 1 && skill_md => {
            tree.pop();
        }
        Ends::FolderOrSkillMd => {}
    }
    Some(Page {
        rev: tree.first().cloned(),
        subdir: (tree.len() > 1).then(|| tree[1..].join("/")),
        tree: Some(tree),
    })
}
