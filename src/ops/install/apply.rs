//! Apply: extract each ready skill into staging and swap it into the
//! root, remove what is no longer wanted, and expose the result in the
//! agents' folders. Folders the lock does not manage are never touched,
//! and a skill edited since it was installed is replaced only with
//! `--force`.

use crate::ops::provenance::Proof;
use crate::ops::provenance::check::check;
use crate::ops::provenance::claim::{Claim, Pins};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context as _, bail};

use super::change::{Action, BrokenRules, Change, ScanWarning};
use super::fetch::Ready;
use super::gate::{self, Gate};
use super::options::InstallOptions;
use crate::hint::Hinted;
use crate::manifest::lock::{LockedSkill, Lockfile, ScanMark};
use crate::project::Project;
use crate::store::archive::extract;
use crate::store::extract::Staged;
use crate::store::hash;
use crate::store::trees::{Lookup, TreeCache};
use crate::store::verified::{Record, Records, Signature};

/// Where and how to apply an install.
pub(super) struct Apply<'a> {
    /// The project, for its staging and trash folders.
    pub project: &'a Project,
    /// The scanner every tree passes before it is put in place.
    pub gate: &'a Gate<'a>,
    /// The root skills go into.
    pub root: &'a Path,
    /// The agents' folders installed skills are exposed in.
    pub targets: &'a [PathBuf],
    /// The manifest's `[install]`: which skills are disabled.
    pub install: &'a crate::manifest::InstallSection,
    /// The lock before this install.
    pub old_lock: &'a Lockfile,
    /// The cache: unpacked trees to copy, and archives to describe local
    /// edits against.
    pub cache: &'a Path,
    /// The cache's sealed records of verified archives.
    pub records: &'a Records,
    /// The signer policies and pins each skill's tree is checked against.
    pub pins: &'a Pins<'a>,
    /// How to behave.
    pub options: InstallOptions<'a>,
    /// Only say what would change: stage and scan, put nothing in place
    /// (`outdated --diff`); what the scanner blocks is said, not refused.
    pub preview: bool,
    /// The org policy the project is under, which each skill's source and
    /// signer must meet.
    pub policy: Option<&'a super::org_policy::ProjectPolicy>,
    /// Whether the warning that links fell back to copies was given.
    pub link_failure_said: AtomicBool,
}

impl Apply<'_> {
    /// Installs every ready skill, removes the ones the old lock managed
    /// that are no longer wanted, and exposes the rest in the targets.
    ///
    /// Skills are hashed, staged and scanned on every core; then, unless
    /// the scanner blocks one (which refuses the install before anything
    /// is written), they are put in place one at a time, in order: the
    /// root only ever gains whole skills.
    pub(super) fn run(&self, ready: Vec<Ready>) -> anyhow::Result<Applied> {
        let progress = self.options.progress;
        progress.start("Installing", ready.len() as u64);
        let prepared = crate::parallel::map(ready, |ready| self.prepare_one(ready));
        let prepared = prepared
            .into_iter()
            .collect::<anyhow::Result<Vec<Prepared>>>()?;
        self.check_policy(&prepared)?;
        let blocked: Vec<&Hinted> = prepared
            .iter()
            .filter_map(|p| match &p.scan {
                Scanned::Blocked(refusal) => Some(refusal),
                _ => None,
            })
            .collect();
        if !blocked.is_empty() && !self.preview {
            bail!(gate::refusals(&blocked));
        }
        let mut applied = Applied::default();
        for prepared in prepared {
            let asks = prepared.asks.clone();
            let proven = prepared.ready.provenance.proven.clone();
            let (skill, change) = self.install_one(prepared)?;
            applied.proven.push(proven);
            applied.locked.push(skill);
            applied.changes.push(change);
            applied.asks.push(asks);
            progress.advance();
        }
        progress.finish();
        if self.preview {
            return Ok(applied);
        }
        self.remove_unwanted(&applied.locked, &mut applied.changes)?;
        self.expose(&applied.locked, &mut applied.changes)?;
        Ok(applied)
    }

    /// Refuses the whole install, before anything is written, when the
    /// org's policy does not allow a skill's source or signer.
    fn check_policy(&self, prepared: &[Prepared]) -> anyhow::Result<()> {
        let Some(policy) = self.policy else {
            return Ok(());
        };
        let refusals: Vec<Hinted> = prepared
            .iter()
            .filter_map(|p| {
                let signer = signer_of(&p.ready);
                policy
                    .check_skill(
                        &p.ready.name,
                        &p.ready.source,
                        signer.as_ref(),
                        p.ready.commit_signer.as_ref(),
                    )
                    .err()
            })
            .collect();
        if refusals.is_empty() {
            return Ok(());
        }
        bail!(gate::refusals(&refusals.iter().collect::<Vec<_>>()));
    }

    /// What proves `ready`'s provenance once `tree` is what would be put
    /// in place (its `skill.oms.sig`, when its pins or a policy ask).
    fn tree_proof(
        &self,
        ready: &Ready<'_>,
        version: &str,
        tree: &Path,
    ) -> anyhow::Result<Option<Proof>> {
        let claim = Claim::Tree {
            name: &ready.name,
            version,
            tree,
            stage: &ready.provenance,
        };
        check(claim, self.pins).proof()
    }

    /// Hashes what is in the skill's folder and, unless that is already
    /// the tree to install, stages the tree (with its hidden-Unicode
    /// warnings). Touches nothing in the root.
    fn prepare_one<'r>(&self, mut ready: Ready<'r>) -> anyhow::Result<Prepared<'r>> {
        let target = self.root.join(ready.skill);
        let old = self.old_lock.get(&ready.name);
        // The tree this package installs, when known without unpacking
        // it: a path or git skill's, or the locked one for the locked archive.
        let known_tree = ready.tree.clone().or_else(|| {
            old.filter(|o| o.version == ready.version && o.checksum == ready.checksum)
                .map(|o| o.tree.clone())
        });
        let current = match target.exists() {
            true => Some(hash::tree_hash(&target)?),
            false => None,
        };
        let mut scan = Scanned::InPlace;
        let mut newly = Vec::new();
        let version = crate::manifest::lock::shown_version(
            &ready.version,
            &ready.source,
            ready.tree.as_deref(),
        );
        // Its OMS signature, over the very tree put in place: a tree in
        // place with files the signature does not vouch for is staged anew.
        let in_place = match &known_tree {
            Some(tree) if current.as_ref() == Some(tree) => {
                let proven = self.tree_proof(&ready, &version, &target)?;
                super::vouched::all_vouched(proven.as_ref(), &target)?.then_some(proven)
            }
            _ => None,
        };
        let staged = match in_place {
            Some(proven) => {
                ready.provenance.proven = proven;
                None
            }
            None => {
                let (mut staged, pinned) =
                    self.stage(&mut ready, known_tree.as_deref(), &target)?;
                let unpruned = staged.tree_hash();
                ready.provenance.proven = self.tree_proof(&ready, &version, &staged.path())?;
                if let Some(warning) = super::vouched::leave_out_unvouched(
                    &ready.name,
                    ready.provenance.proven.as_ref(),
                    &mut staged,
                )? {
                    ready.warnings.push(warning);
                }
                let tree = staged.tree_hash();
                // The lock pins the archive's tree without what no
                // signature vouches for.
                if let Some(pinned) = pinned
                    && pinned != tree
                {
                    bail!(super::fetch::lock_tree_mismatch(
                        &ready.name,
                        &ready.version,
                        &pinned,
                        ready.checksum.as_deref().unwrap_or("unknown checksum"),
                        &unpruned
                    ));
                }
                self.check_locked_tree(&ready, old, &tree)?;
                // A kind whose pin is its tree keeps the tree put in place
                // (an update moves the pin, and the source with it).
                if let Some(kind) = crate::ops::sources::direct_of_pin(&ready.source) {
                    let pinned = old.filter(|old| old.source == ready.source);
                    kind.check_tree(&ready.name, &ready.source, pinned, &tree)?;
                }
                scan = self.scan(&mut ready, &staged, &tree)?;
                // An update: what the new tree does that the installed one did not.
                if let (Some(old), Some(_)) = (old, &current)
                    && (old.version != ready.version || old.source != ready.source)
                {
                    newly = super::newly::of_trees(&target, &staged.path());
                }
                Some((staged, tree))
            }
        };
        // What it asks to pre-approve, read here on a worker: the staged
        // tree is the one put in place.
        let (asks, dropped) = match &staged {
            Some((staged, _)) => crate::ops::consent::grants::install::asked_for(&staged.path()),
            None => crate::ops::consent::grants::install::asked_for(&target),
        };
        // Said when the tree is put in place, not on every install.
        if staged.is_some() {
            let name = &ready.name;
            ready
                .warnings
                .extend(dropped.iter().map(|warning| format!("{name}: {warning}")));
        }
        Ok(Prepared {
            ready,
            target,
            current,
            staged,
            asks,
            scan,
            newly,
        })
    }

    /// With `--locked`, a path or git skill's tree as put in place must be
    /// the lock's (checked here for a tree signed file by file, once what
    /// its signature does not vouch for is left out).
    fn check_locked_tree(
        &self,
        ready: &Ready,
        old: Option<&LockedSkill>,
        tree: &str,
    ) -> anyhow::Result<()> {
        if !self.options.locked || ready.tree.is_none() {
            return Ok(());
        }
        match old {
            Some(old) if old.tree != tree => bail!(super::wanted::changed_under_lock(
                &ready.name,
                &self.project.lock_path,
                &old.tree,
                tree,
                if self.options.frozen {
                    "--frozen"
                } else {
                    "--locked"
                },
            )),
            _ => Ok(()),
        }
    }

    /// Scans the tree `tree` staged for `ready` (unless `--no-scan`,
    /// which warns of hidden Unicode only, as before the scanner).
    fn scan(&self, ready: &mut Ready, staged: &Staged, tree: &str) -> anyhow::Result<Scanned> {
        if !self.gate.enabled {
            ready.warnings.extend(
                staged
                    .scan_hidden_unicode()?
                    .iter()
                    .map(|hidden| format!("{}: {hidden}", ready.name)),
            );
            return Ok(Scanned::Skipped);
        }
        let verdict = self
            .gate
            .check(
                tree,
                &staged.path(),
                staged.digests(),
                self.waivers_of(&ready.name),
            )
            .with_context(|| format!("could not scan {}", ready.name))?;
        if !verdict.blocks.is_empty() {
            let refusal = gate::refusal(&ready.name, &verdict.blocks, staged.digests());
            return Ok(Scanned::Blocked(refusal));
        }
        Ok(Scanned::Passed(verdict.warnings))
    }

    /// The waivers of the package `name`: its locked entry's, or for a
    /// first install those recorded ahead of it, which it adopts.
    fn waivers_of(&self, name: &str) -> &[crate::manifest::lock::Waiver] {
        match self.old_lock.get(name) {
            Some(old) => &old.waivers,
            None => self
                .old_lock
                .pending_waivers
                .get(name)
                .map_or(&[], Vec::as_slice),
        }
    }

    /// Puts one prepared skill in place unless its tree already is.
    fn install_one(&self, prepared: Prepared) -> anyhow::Result<(LockedSkill, Change)> {
        let Prepared {
            ready,
            target,
            current,
            staged,
            asks: _,
            scan,
            newly,
        } = prepared;
        let old = self.old_lock.get(&ready.name);
        let tree = match staged {
            None => current
                .clone()
                .expect("nothing is staged only for a tree in place"),
            Some((staged, tree)) => {
                match &current {
                    // An interrupted run already put it there.
                    Some(current) if *current == tree => {}
                    _ if self.preview => {}
                    Some(current) => {
                        self.check_replaceable(&target, &ready.name, old, current)?;
                        swap_into_place(staged, &target, &self.project.trash_dir())?;
                    }
                    None => swap_into_place(staged, &target, &self.project.trash_dir())?,
                }
                tree
            }
        };
        let signer = signer_of(&ready);
        let warnings = ready.warnings;
        let in_place = current.as_deref() == Some(tree.as_str());
        let action = match old {
            Some(o)
                if in_place
                    && o.version == ready.version
                    && o.tree == tree
                    && o.source == ready.source =>
            {
                Action::Unchanged
            }
            Some(o) if o.version != ready.version || o.tree != tree || o.source != ready.source => {
                Action::Updated
            }
            // New, or the locked version put back (missing or replaced with --force).
            _ => Action::Installed,
        };
        // Said once, when it is put in place, not on every install.
        let broken_rules =
            (action != Action::Unchanged && !ready.broken_rules.is_empty()).then(|| BrokenRules {
                rules: ready.broken_rules.clone(),
                folder: self.project.shown(&target).to_path_buf(),
            });
        let scan_warnings = match &scan {
            Scanned::Passed(findings) if action != Action::Unchanged => {
                findings.iter().map(ScanWarning::of).collect()
            }
            _ => Vec::new(),
        };
        let mut change = Change {
            warnings,
            scan_warnings,
            broken_rules,
            ..Change::of(
                &ready.name,
                &ready.version,
                &ready.source,
                Some(&tree),
                old,
                action,
            )
        };
        let waivers = self.waivers_of(&ready.name).to_vec();
        let locked = LockedSkill {
            name: ready.name,
            version: ready.version,
            source: ready.source,
            checksum: ready.checksum,
            tree,
            signer,
            signature: ready
                .provenance
                .proven
                .as_ref()
                .map(|p| p.signature.clone()),
            commit_signer: ready.commit_signer,
            dependencies: ready.dependencies,
            // Settled once every skill is in place (see `grants`).
            grants: old.map(|o| o.grants.clone()).unwrap_or_default(),
            waivers,
            scan: match scan {
                Scanned::InPlace => old.and_then(|o| o.scan),
                Scanned::Skipped => Some(ScanMark::Skipped),
                Scanned::Passed(_) | Scanned::Blocked(_) => None,
            },
        };
        if change.action == Action::Updated
            && let Some(old) = old
        {
            change.newly = newly;
            change.newly.extend(super::newly::of_entries(old, &locked));
            if let (Some(from), Some(to)) = (&old.signer, &locked.signer)
                && from != to
            {
                change.signer = Some(super::change::SignerChange {
                    from: from.clone(),
                    to: to.clone(),
                });
            }
        }
        if let Scanned::Blocked(refusal) = &scan {
            change.refusal = Some(refusal.message().to_string());
        }
        Ok((locked, change))
    }

    /// Stages the files of `ready`: for a registry archive whose tree the
    /// cache's record gives, the cached copy of that tree if it hashes to
    /// it; else the archive extracted, its tree then kept in the cache and
    /// recorded. An archive whose files are not the tree `known` (the
    /// lock's pin, when there is no record) is returned with that pin,
    /// which the tree must still meet once what no signature vouches for
    /// is left out.
    fn stage(
        &self,
        ready: &mut Ready,
        known: Option<&str>,
        target: &Path,
    ) -> anyhow::Result<(Staged, Option<String>)> {
        if let Some(staged) = ready.staged.take() {
            return Ok((staged, None));
        }
        let trees = TreeCache::within(self.cache, self.options.limits);
        let staging = self.project.staging_dir();
        // Only a tree the record vouches for is taken from the cache: a
        // lock's alone could name files the archive never held.
        if let (Some(tree), Some(executables), Some(checksum)) =
            (&ready.tree, &ready.executables, &ready.checksum)
        {
            let mode = self.options.link_mode;
            let files = &ready.files;
            match trees.stage(checksum, tree, files, ready.skill, executables, &staging, mode)? {
                Lookup::Hit(staged) => return Ok((staged, None)),
                Lookup::Copied(staged, error) => {
                    if !self.link_failure_said.swap(true, Ordering::Relaxed) {
                        ready.warnings.push(format!(
                            "could not hard-link files from the cache ({error}), so they were copied; the cache ({}) may be on another file system than the project, or hold files of another account: pass --link-mode copy (or set SKILLPKG_LINK_MODE=copy) to copy without trying",
                            self.cache.display()
                        ));
                    }
                    return Ok((staged, None));
                }
                Lookup::Miss => {}
                Lookup::Replaced(cached) => ready.warnings.push(format!(
                    "{}: the cached copy of its files ({}) did not match skills.lock and was replaced from the verified archive",
                    ready.name,
                    cached.display()
                )),
            }
        }
        // The record spared reading the archive; now it must be read.
        if let Some(planned) = ready.unchecked.take() {
            let checked =
                super::fetch::check_archive(planned, self.cache, None, &self.options.limits)?
                    .verified;
            ready.archive = Some(checked.archive);
            ready.signature = checked.signature;
        }
        let archive = ready.archive.as_deref().ok_or_else(|| {
            anyhow::anyhow!(
                "{} changed in {} while it was being installed; run the command again",
                ready.name,
                target.display()
            )
        })?;
        let staged = extract(archive, Some(ready.skill), &staging, &self.options.limits)
            .with_context(|| format!("{}@{} cannot be installed", ready.name, ready.version))?;
        if ready.executables.is_none() {
            return Ok((staged, None));
        }
        // A tree other than the lock's pin is neither kept nor recorded:
        // it must still prove to be the pin without the files no signature
        // vouches for.
        let tree = staged.tree_hash();
        if let Some(pinned) = known
            && pinned != tree
        {
            return Ok((staged, Some(pinned.to_string())));
        }
        // Only a cache: a tree that cannot be kept (a full or read-only
        // disk) is unpacked from the archive again next time.
        let signature = ready.signature.take();
        if let (Some(checksum), Some(executables)) = (&ready.checksum, &ready.executables) {
            let _ = trees.keep(&staged, checksum, self.options.link_mode);
            // A signed archive is recorded with the signature checked in
            // this run, or not at all.
            if signature.is_some() || ready.signer.is_none() {
                self.record(checksum, &staged, executables, signature);
            }
        }
        Ok((staged, None))
    }

    /// Records that the archive `checksum`, checked in this run, unpacks
    /// to `staged`, with the signature checked over it, so that the next
    /// install takes its tree from the cache without reading it.
    fn record(
        &self,
        checksum: &str,
        staged: &Staged,
        executables: &std::collections::BTreeSet<String>,
        signature: Option<Signature>,
    ) {
        let fresh = Record {
            archive: checksum.to_string(),
            tree: staged.tree_hash(),
            files: staged.files(),
            executables: executables.clone(),
            signatures: Vec::new(),
        };
        let mut record = match self.records.get(checksum) {
            // The same facts, with the signatures seen before.
            Some(kept)
                if Record {
                    signatures: Vec::new(),
                    ..kept.clone()
                } == fresh =>
            {
                kept
            }
            _ => fresh,
        };
        if let Some(signature) = signature {
            record.add_signature(signature);
        }
        self.records.put(&record);
    }

    /// Removes the skills the old lock managed that `installed` leaves out
    /// (unless edited since, without `--force`), with their exposures.
    fn remove_unwanted(
        &self,
        installed: &[LockedSkill],
        changes: &mut Vec<Change>,
    ) -> anyhow::Result<()> {
        let kept: std::collections::HashSet<&str> =
            installed.iter().map(|s| s.name.as_str()).collect();
        for old in self.old_lock.skills() {
            if kept.contains(old.name.as_str()) {
                continue;
            }
            let target = self.root.join(old.folder());
            if target.exists() {
                let tree = hash::tree_hash(&target)?;
                if tree != old.tree && !self.options.force {
                    bail!(
                        Hinted::new(format!(
                            "{} was edited since it was installed; not removing it{}",
                            target.display(),
                            super::change::describe_edits(&target, old, self.cache)
                        ))
                        .hint("pass --force to remove it anyway")
                    );
                }
                fs_err::remove_dir_all(&target)?;
            }
            for exposed_in in self.targets {
                super::targets::unexpose(exposed_in, &target)?;
            }
            changes.push(Change::removed(old));
        }
        Ok(())
    }

    /// Exposes every installed skill in the agents' folders the manifest
    /// names; what is in the way becomes a warning on that skill's change.
    fn expose(&self, installed: &[LockedSkill], changes: &mut [Change]) -> anyhow::Result<()> {
        for exposed_in in self.targets {
            for skill in installed {
                let dir = self.root.join(skill.folder());
                // Disabled: taken out of the agents' folders, kept installed.
                if self.install.is_disabled(&skill.name) {
                    super::targets::unexpose(exposed_in, &dir)?;
                    continue;
                }
                if let Some(warning) = super::targets::expose(exposed_in, &dir)?
                    && let Some(change) = changes.iter_mut().find(|c| c.name == skill.name)
                {
                    change.warnings.push(warning);
                }
            }
        }
        Ok(())
    }

    /// Refuses to replace `target`, whose files hash to `current`, unless
    /// it is a pristine managed skill (or `--force`).
    fn check_replaceable(
        &self,
        target: &Path,
        name: &str,
        old: Option<&LockedSkill>,
        current: &str,
    ) -> anyhow::Result<()> {
        match old {
            None => bail!(Hinted::new(format!("{} already exists and skillpkg does not manage it (a hand-written skill?); not overwriting it", target.display())).hint(format!("rename or move that folder, then install {name} again"))),
            Some(old) if old.tree != current && !self.options.force => bail!(Hinted::new(format!("{} was edited since it was installed (its files no longer match skills.lock){}", target.display(), super::change::describe_edits(target, old, self.cache))).hint(format!("keep your edits elsewhere, or pass --force to replace it with {name}"))),
            Some(_) => Ok(()),
        }
    }
}

/// A skill hashed and staged, ready to be put in place.
struct Prepared<'r> {
    ready: Ready<'r>,
    /// Its folder in the root.
    target: PathBuf,
    /// The tree hash of what that folder holds now, if it exists.
    current: Option<String>,
    /// The tree to put there, with its hash; `None` when it is there
    /// already.
    staged: Option<(Staged, String)>,
    /// The patterns its `allowed-tools` asks to pre-approve.
    asks: Vec<String>,
    /// What the scanner made of the staged tree.
    scan: Scanned,
    /// What the staged tree newly does, against the installed one.
    newly: Vec<String>,
}

/// What the scanner made of a skill's tree.
enum Scanned {
    /// Nothing was staged: the tree is in place already.
    InPlace,
    /// Staged without scanning (`--no-scan`).
    Skipped,
    /// Scanned: nothing blocks; these are its `warn` findings.
    Passed(Vec<crate::scan::Finding>),
    /// Scanned, and refused for this.
    Blocked(Hinted),
}

/// What [`Apply::run`] did.
#[derive(Default)]
pub(super) struct Applied {
    /// The locked skills, in the order they were ready.
    pub locked: Vec<LockedSkill>,
    /// What changed.
    pub changes: Vec<Change>,
    /// What each locked skill's `allowed-tools` asks to pre-approve.
    pub asks: Vec<Vec<String>>,
    /// What proved each locked skill's provenance beyond minisign.
    pub proven: Vec<Option<Proof>>,
}

/// Renames the staged skill into `target`, moving any old tree aside first
/// and deleting it after, so the root never shows a half-installed skill.
fn swap_into_place(staged: Staged, target: &Path, trash: &Path) -> anyhow::Result<()> {
    if let Some(root) = target.parent() {
        fs_err::create_dir_all(root)?;
    }
    if !target.exists() {
        // Nothing to move aside. A folder that appeared meanwhile makes
        // the rename fail rather than be replaced.
        return staged
            .persist(target)
            .with_context(|| format!("could not move the new skill into {}", target.display()));
    }
    fs_err::create_dir_all(trash)?;
    let aside = crate::fsutil::private_tempdir("old-", Some(trash))?.keep();
    fs_err::rename(target, aside.join("tree"))?;
    staged
        .persist(target)
        .with_context(|| format!("could not move the new skill into {}", target.display()))?;
    let _ = fs_err::remove_dir_all(&aside);
    Ok(())
}

/// What verified `ready`, as the lock records it: what its provenance
/// proved, else the minisign key that signed its archive.
fn signer_of(ready: &Ready) -> Option<crate::manifest::lock::LockedSigner> {
    match &ready.provenance.proven {
        Some(proven) => Some(proven.signer.clone()),
        None => ready
            .signer
            .clone()
            .map(crate::manifest::lock::LockedSigner::Minisign),
    }
}
