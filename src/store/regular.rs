//! Opening the files of a tree as regular files only: a link or a FIFO
//! put in a file's place after a walk saw it is refused, not followed or
//! waited on.

use std::path::Path;

/// Opens a file that the walk saw as a regular file, without following a
/// link or blocking on a FIFO put in its place since.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    open_regular_with_metadata(path).map(|(file, _)| file)
}

/// [`open_regular`], with the metadata of the file opened.
fn open_regular_with_metadata(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    let with_path =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = options.open(path).map_err(with_path)?;
    let metadata = file.metadata().map_err(with_path)?;
    if !metadata.is_file() {
        return Err(std::io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    Ok((file, metadata))
}
