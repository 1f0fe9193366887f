//! The audit log of a run: `.skillpkg/runs/<timestamp>-<id>.jsonl`, one
//! JSON object per line, each with its `event` and the milliseconds since
//! the run started. Lines are flushed as they are written, so a run that
//! is interrupted still leaves a readable log.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// An open audit log.
pub(crate) struct Audit {
    path: PathBuf,
    file: std::fs::File,
    started: Instant,
    /// Every event recorded, for callers that judge the run (evals).
    events: Vec<Value>,
}

/// Refuses `path` when it is a symbolic link.
fn refuse_link(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(std::io::Error::other(format!(
            "{} is a symbolic link; skillpkg writes its state only into a real folder",
            path.display()
        ))),
        _ => Ok(()),
    }
}

impl Audit {
    /// Creates a new log under `state_dir/runs/`, readable by the user
    /// alone. The state folder and `runs/` must be real folders: a link a
    /// cloned repository planted there is refused, not written through.
    pub(crate) fn create(state_dir: &Path) -> std::io::Result<Audit> {
        refuse_link(state_dir)?;
        crate::fsutil::ignore_in_git(state_dir)?;
        let runs = state_dir.join("runs");
        refuse_link(&runs)?;
        fs_err::create_dir_all(&runs)?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let id = (now.subsec_nanos() ^ std::process::id().rotate_left(16)) & 0xff_ffff;
        // Names sort in time order: the stamp has milliseconds.
        let path = runs.join(format!(
            "{}.{:03}Z-{id:06x}.jsonl",
            crate::time::utc_stamp(now.as_secs()).trim_end_matches('Z'),
            now.subsec_millis()
        ));
        let mut options = std::fs::OpenOptions::new();
        options.create_new(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(&path)?;
        Ok(Audit {
            path,
            file,
            started: Instant::now(),
            events: Vec::new(),
        })
    }

    /// Where the log is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The events recorded so far.
    pub(crate) fn events(&self) -> &[Value] {
        &self.events
    }

    /// Appends one event; `fields` must be a JSON object.
    pub(crate) fn record(&mut self, event: &str, fields: Value) {
        let mut line = serde_json::Map::new();
        line.insert("event".into(), event.into());
        line.insert(
            "t_ms".into(),
            (self.started.elapsed().as_millis() as u64).into(),
        );
        if let Value::Object(fields) = fields {
            line.extend(fields);
        }
        let line = Value::Object(line);
        let mut text = line.to_string();
        text.push('\n');
        self.events.push(line);
        // An audit line that cannot be written must not end the run; the
        // final summary says where the log is, and the OS error shows there.
        let _ = self.file.write_all(text.as_bytes());
    }
}
