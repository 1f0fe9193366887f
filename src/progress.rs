//! Progress of long steps (fetching, downloading, installing), reported to
//! whoever runs an operation: the CLI draws bars on a terminal, tests and
//! library callers pass [`SILENT`].

/// Receives the progress of one step at a time.
pub trait Progress: Sync {
    /// A step of `total` units begins, named by a verb (`Downloading`).
    fn start(&self, verb: &str, total: u64);
    /// One more unit of the current step is done.
    fn advance(&self);
    /// The current step is over.
    fn finish(&self);
}

/// Reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Silent;

/// The progress sink that reports nothing.
pub(crate) static SILENT: Silent = Silent;

impl Progress for Silent {
    fn start(&self, _verb: &str, _total: u64) {}
    fn advance(&self) {}
    fn finish(&self) {}
}
