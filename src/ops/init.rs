//! `skillpkg init`: start a project manifest.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::hint::Hinted;
use crate::manifest::MANIFEST_TEMPLATE;
use crate::project::MANIFEST_FILE;

/// Writes a new `skills.toml` in `dir` and returns its path. Refuses to
/// overwrite an existing one.
pub(crate) fn init_project(dir: &Path) -> anyhow::Result<PathBuf> {
    let path = dir.join(MANIFEST_FILE);
    if path.exists() {
        bail!(
            Hinted::new(format!("{} already exists", path.display()))
                .hint("add skills to it with `skillpkg add org/name`")
        );
    }
    fs_err::create_dir_all(dir)?;
    crate::fsutil::write_atomically(&path, MANIFEST_TEMPLATE.as_bytes())?;
    Ok(path)
}

/// The project `add` works on, run in `cwd`: the one found, or, when
/// there is none, a new one started at the git work tree's root (else in
/// `cwd`) and trusted, as `init` would. Returns the project and, when it
/// started one, the manifest it wrote. A project in the home directory (or
/// above it) is refused: its skills folder would be the user root.
pub(crate) fn project_for_add(
    cwd: &Path,
    dirs: &crate::dirs::Dirs,
) -> anyhow::Result<(crate::project::Project, Option<PathBuf>)> {
    use crate::project::{Discovery, Project};
    let discovery = Discovery::from(cwd);
    if discovery.manifest_dir.is_some() {
        return Ok((Project::find(cwd)?, None));
    }
    let dir = discovery
        .git_root
        .clone()
        .unwrap_or_else(|| cwd.to_path_buf());
    let canonical = |path: &Path| fs_err::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let home_or_above = dirs
        .home
        .as_deref()
        .is_some_and(|home| canonical(home).starts_with(canonical(&dir)));
    let project = Project::at(&dir);
    let root = project.skill_root(None)?;
    if home_or_above || canonical(&root) == canonical(&dirs.user_root) {
        bail!(
            Hinted::new(format!(
                "no {MANIFEST_FILE} in {} or above, and a project started in {} would take {} for its own: {}",
                cwd.display(),
                dir.display(),
                root.display(),
                match home_or_above {
                    true => "it is the home directory, or above it",
                    false => "that is the user root, where your own skills go",
                }
            ))
            .hint("add skills for yourself, in the user root: `skillpkg add -g …`")
            .hint("or start a project in its own folder: `skillpkg init <dir>`")
        );
    }
    let path = init_project(&dir)?;
    let manifest = crate::manifest::Manifest::load(&path)?;
    let lock = crate::manifest::lock::Lockfile::load(&project.lock_path)?;
    crate::ops::consent::project::trust(
        dirs,
        &dir,
        &crate::ops::consent::project::TrustedSettings::of(&dir, &manifest, &lock),
    )?;
    Ok((project, Some(path)))
}

/// A project [`project_for_add`] started for `add` or `import`: kept when
/// the command did its work, taken back ([`Started::abandon`]) when it
/// failed or added nothing.
#[derive(Debug)]
pub(crate) struct Started {
    /// The `skills.toml` it wrote.
    pub manifest: PathBuf,
    /// Whether there was no `skills.lock` before, so one the command wrote
    /// goes too.
    lock_is_new: bool,
}

/// The project [`project_for_add`] starts in `cwd`, if it starts one.
pub(crate) fn start_for_add(
    cwd: &Path,
    dirs: &crate::dirs::Dirs,
) -> anyhow::Result<Option<Started>> {
    Ok(project_for_add(cwd, dirs)?.1.map(|manifest| Started {
        lock_is_new: !manifest.with_file_name(crate::project::LOCK_FILE).exists(),
        manifest,
    }))
}

impl Started {
    /// Takes the project back: its `skills.toml`, the `skills.lock` the
    /// command wrote, and the trust it was given.
    pub(crate) fn abandon(self, dirs: &crate::dirs::Dirs) -> anyhow::Result<()> {
        let dir = self.manifest.parent().unwrap_or(Path::new("."));
        crate::ops::consent::project::revoke(dirs, dir)?;
        if self.lock_is_new {
            match fs_err::remove_file(dir.join(crate::project::LOCK_FILE)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
                _ => {}
            }
        }
        fs_err::remove_file(&self.manifest)?;
        Ok(())
    }
}

/// When `dir` is a folder inside a git work tree whose root holds skills
/// (a `skills.toml`, or skills in `.agents/skills`), a project in `dir`
/// hides them from commands run there: the warning that says so.
pub(crate) fn hidden_by_nested_project(dir: &Path) -> Option<String> {
    let root = crate::project::Discovery::from(dir.parent()?).git_root?;
    let canonical = |path: &Path| fs_err::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if canonical(&root) == canonical(dir) {
        return None;
    }
    let skills = std::fs::read_dir(root.join(crate::project::DEFAULT_PROJECT_ROOT))
        .map(|entries| entries.filter_map(Result::ok).count())
        .unwrap_or(0);
    let has_manifest = root.join(MANIFEST_FILE).is_file();
    (skills > 0 || has_manifest).then(|| {
        format!(
            "{} is inside the git repository {}, which has skills of its own{}; commands run in {} will use this project instead and not see them (run `skillpkg init` at the repository's root to use one project)",
            dir.display(),
            root.display(),
            match skills {
                0 => String::new(),
                n => format!(" ({n} in {})", crate::project::DEFAULT_PROJECT_ROOT),
            },
            dir.display()
        )
    })
}
