//! What `add --git` is told about signers: `--signed-by` values as
//! skills.toml records them, and the `--trusted-root` file, named
//! relative to the project.

/// `file` as skills.toml names it: relative to the project `dir`, which
/// must hold it (a teammate's clone needs the same trust material).
pub(super) fn in_project(file: &std::path::Path, dir: &std::path::Path) -> anyhow::Result<String> {
    let outside = || {
        crate::hint::Hinted::new(format!(
            "--trusted-root {}: not a file inside the project {}",
            file.display(),
            dir.display()
        ))
        .hint("copy the trusted_root.json into the project (it is committed with skills.toml), and name that copy")
    };
    let path = fs_err::canonicalize(file)?;
    let project = fs_err::canonicalize(dir)?;
    let relative = path.strip_prefix(&project).map_err(|_| outside())?;
    let text = relative.to_str().ok_or_else(outside)?;
    Ok(text.replace('\\', "/"))
}

/// The `--signed-by` values as skills.toml records them: a value naming
/// a file (a `.pub` file) stands for the key on its first line.
pub(super) fn signers(given: &[String]) -> anyhow::Result<Vec<String>> {
    given
        .iter()
        .map(|value| {
            let path = std::path::Path::new(value);
            let signer = match path.is_file() {
                false => value.trim().to_string(),
                true => {
                    let text = fs_err::read_to_string(path)?;
                    let line = text.lines().map(str::trim).find(|l| !l.is_empty());
                    line.map(str::to_string).ok_or_else(|| {
                        anyhow::anyhow!("--signed-by {value}: the file holds no key")
                    })?
                }
            };
            crate::git::signature::AllowedSigner::parse(&signer)
                .map_err(|problem| crate::git::signature::unreadable("--signed-by", &problem))?;
            Ok(signer)
        })
        .collect()
}
