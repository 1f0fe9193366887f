//! `import`: takes over the skills another installer put in place.
//!
//! `npx skills` records what it installed in `skills-lock.json` (a
//! project's) or `~/.agents/.skill-lock.json` (the user's; under
//! `$XDG_STATE_HOME/skills/` when that is set). Each entry
//! becomes a `skills.toml` dependency — a git dependency for `github`,
//! `gitlab` and `git` sources, a path dependency for `local` ones — and
//! one install locks them all. A skill already in the install root is
//! taken over only when its files are exactly what its source holds now,
//! as `npx skills` copies a source (without the files it never copies:
//! [`NPX_SKIPPED_FILES`], [`NPX_SKIPPED_FOLDERS`]); the install then puts
//! the source's files in place. Any other is left out, untouched, with
//! what the user can do: for a git source, install it from there; else
//! the command that adopts the copy. A hint never makes a skill that
//! comes from a git repository a path dependency.
//!
//! Folders placed by hand have no lock to read. `--from DIR --adopt`
//! makes each the source of a path dependency: the folder moves to the
//! project's `skills/<name>`, is installed from there into the install
//! root byte for byte, and a link takes its old place, pointing at the
//! installed skill. Its files stay the project's own (a path dependency,
//! which `remove` never deletes), and the lock pins them as they are.

mod adopt;
mod copies;
mod lock;
mod npx_lock;
mod sources;

pub use adopt::{Adopted, Found, adopt_folders};
pub use lock::{Imported, LeftOut, import_lock};
pub use npx_lock::{
    NPX_SKIPPED_FILES, NPX_SKIPPED_FOLDERS, NpxEntry, NpxLock, PROJECT_LOCK, global_lock,
    parse_npx_lock,
};
