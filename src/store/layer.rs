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

use std::io::{Read, Seek, Write};
use std::path::Path;

use super::archive::ArchiveFile;

/// The layer made of the `.skill` archive `archive`, in a new temporary
/// file beside it.
pub(crate) fn layer_beside(archive: &ArchiveFile) -> anyhow::Result<ArchiveFile> {
    let dir = archive.path().parent().unwrap_or(Path::new("."));
    layer_from_archive(archive.path(), tempfile::NamedTempFile::new_in(dir)?)
}

/// The layer made of the `.skill` archive at `archive`, written into
/// `into` (a new temporary file).
pub(crate) fn layer_from_archive(
    archive: &Path,
    mut into: tempfile::NamedTempFile,
) -> anyhow::Result<ArchiveFile> {
    let zip = std::io::BufReader::new(fs_err::File::open(archive)?);
    let mut out = write_layer(zip, std::io::BufWriter::new(into.as_file_mut()))?;
    out.flush()?;
    drop(out);
    Ok(ArchiveFile::hashed(into)?)
}

/// Writes the layer made of the `.skill` archive `archive` into `out`,
/// each file streamed from the zip into the tar.
pub(crate) fn write_layer<W: Write>(archive: impl Read + Seek, out: W) -> anyhow::Result<W> {
    let mut zip = zip::ZipArchive::new(archive)?;
    let gzip = flate2::GzBuilder::new()
        .mtime(0)
        .write(out, flate2::Compression::default());
    let mut tar = tar::Builder::new(gzip);
    tar.mode(tar::HeaderMode::Deterministic);
    for index in 0..zip.len() {
        let file = zip.by_index(index)?;
        if file.is_dir() {
            continue;
        }
        let name = file.name()?.into_owned();
        let executable = file.unix_mode().unwrap_or(0) & 0o111 != 0;
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(file.size());
        header.set_mode(if executable { 0o755 } else { 0o644 });
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        tar.append_data(&mut header, &name, file)?;
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
        let layer_of =
            |archive: &[u8]| write_layer(std::io::Cursor::new(archive), Vec::new()).unwrap();
        let layer = layer_of(&archive);
        assert!(super::super::archive::is_gzip(&layer));
        assert_eq!(layer, layer_of(&archive));
        // Written to a file, the same bytes.
        let zip = temp.path().join("layered.skill");
        std::fs::write(&zip, &archive).unwrap();
        let file = layer_from_archive(&zip, tempfile::NamedTempFile::new_in(temp.path()).unwrap())
            .unwrap();
        assert_eq!(std::fs::read(file.path()).unwrap(), layer);
        assert_eq!(file.sha256, super::super::hash::sha256_hex(&layer));
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
