//! The OCI layer of a skill: the files of its deterministic `.skill`
//! archive ([`super::pack`]) as a gzip-compressed tar rooted at `<name>/`,
//! the content layer of the Agent Skills OCI vocabulary.
//!
//! Made from the archive rather than from the folder, so the layer holds
//! exactly what `pack` took (its exclusions, names and executable bits),
//! and as deterministically: entries in the archive's order, modes
//! `0644`/`0755`, owner `0:0` with no names, modification time `0`, and a
//! gzip header with no name and no time. The same archive always makes
//! the same layer, so the same tree publishes to the same digest.

use std::io::{Read as _, Write as _};

/// Whether `bytes` start as a gzip stream does (an OCI layer rather than a
/// `.skill` zip).
pub(crate) fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The layer made of the `.skill` archive `archive`.
pub(crate) fn layer_from_archive(archive: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive))?;
    let gzip = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gzip);
    tar.mode(tar::HeaderMode::Deterministic);
    for index in 0..zip.len() {
        let mut file = zip.by_index(index)?;
        if file.is_dir() {
            continue;
        }
        let name = file.name()?.into_owned();
        let executable = file.unix_mode().unwrap_or(0) & 0o111 != 0;
        let mut contents = Vec::with_capacity(file.size() as usize);
        file.read_to_end(&mut contents)?;
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(contents.len() as u64);
        header.set_mode(if executable { 0o755 } else { 0o644 });
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        tar.append_data(&mut header, &name, contents.as_slice())?;
    }
    let mut gzip = tar.into_inner()?;
    gzip.flush()?;
    Ok(gzip.finish()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &std::path::Path) {
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: layered\ndescription: A skill to layer.\n---\nBody\n",
        )
        .unwrap();
        std::fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\necho hi\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(
                dir.join("scripts/run.sh"),
                std::fs::Permissions::from_mode(0o755),
            )
            .unwrap();
        }
    }

    #[test]
    fn the_same_archive_makes_the_same_layer_rooted_at_the_name() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("layered");
        skill(&dir);
        let archive = super::super::pack::pack_to_bytes(&dir, "layered").unwrap();
        let layer = layer_from_archive(&archive).unwrap();
        assert!(is_gzip(&layer));
        assert_eq!(layer, layer_from_archive(&archive).unwrap());
        let mut names = Vec::new();
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(layer.as_slice()));
        for entry in tar.entries().unwrap() {
            let entry = entry.unwrap();
            let header = entry.header();
            names.push((
                entry.path().unwrap().to_string_lossy().into_owned(),
                header.mode().unwrap(),
                header.mtime().unwrap(),
            ));
        }
        assert_eq!(
            names,
            [
                ("layered/SKILL.md".to_string(), 0o644, 0),
                ("layered/scripts/run.sh".to_string(), 0o755, 0),
            ]
        );
    }
}
