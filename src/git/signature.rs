//! Signed commits: whether a commit of a git source was signed by one of
//! the signers its `skills.toml` entry names (`signed-by`).
//!
//! The repository is the attacker's to write: anyone who can push to it
//! (or who serves it) chooses every byte of the commit, its signature
//! header included. So the signature is checked against the keys the
//! project names, never against a key the signature carries, and over
//! exactly the bytes git signs (the commit object without its signature
//! header, as libgit2 gives them). SSH signatures (`gpg.format = ssh`)
//! are checked here, under git's `git` namespace; OpenPGP signatures by
//! `gpg`, as git itself does, against the user's keyring, and only a
//! good signature whose key fingerprint the project names counts. X.509
//! signatures (gitsign's Sigstore certificates) are handed to the check
//! the caller gives, which provenance does: this layer cannot reach it.

use std::process::Command;
use std::time::Duration;

use anyhow::{Context as _, bail};

use crate::hint::Hinted;

/// Who signed a commit, as the lock records it (`commit-signer`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CommitSigner {
    /// An SSH key: its OpenSSH public line, without a comment.
    Ssh(String),
    /// An OpenPGP key: its primary key's fingerprint, upper-case hex.
    Gpg(String),
    /// A Sigstore certificate (gitsign): its identity and OIDC issuer.
    Sigstore { identity: String, issuer: String },
}

/// A signer a `signed-by` entry names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AllowedSigner {
    /// An OpenSSH public key.
    Ssh(ssh_key::PublicKey),
    /// An OpenPGP key: the fingerprint of the key (primary or subkey) that
    /// must make the signature, upper-case hex.
    Gpg(String),
    /// A Sigstore identity (a certificate's email or URI) and the OIDC
    /// issuer that must vouch for it; with `regexp`, `identity` is a
    /// regex the whole identity must match.
    Sigstore {
        identity: String,
        regexp: bool,
        issuer: String,
    },
}

impl AllowedSigner {
    /// Reads `text`: an OpenSSH public key line (`ssh-ed25519 AAAA…
    /// [comment]`, as in a `.pub` file) or `gpg:FINGERPRINT`.
    pub(crate) fn parse(text: &str) -> Result<AllowedSigner, String> {
        let text = text.trim();
        for (prefix, regexp) in [("sigstore:", false), ("sigstore-regexp:", true)] {
            if let Some(rest) = text.strip_prefix(prefix) {
                return sigstore_signer(text, rest, regexp);
            }
        }
        if let Some(fingerprint) = text.strip_prefix("gpg:") {
            let fingerprint: String = fingerprint
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_ascii_uppercase();
            let hex = fingerprint.chars().all(|c| c.is_ascii_hexdigit());
            if !hex || !matches!(fingerprint.len(), 40 | 64) {
                return Err(format!(
                    "'{text}' is no GPG fingerprint: give the key's full fingerprint (40 or 64 hex digits, `gpg --fingerprint` shows it)"
                ));
            }
            return Ok(AllowedSigner::Gpg(fingerprint));
        }
        ssh_key::PublicKey::from_openssh(text)
            .map(AllowedSigner::Ssh)
            .map_err(|_| {
                format!(
                    "'{text}' is no signer skillpkg reads: give an OpenSSH public key (`ssh-ed25519 AAAA…`, as in a .pub file), `gpg:FINGERPRINT` or `sigstore:IDENTITY,ISSUER`"
                )
            })
    }

    /// Whether `signer` is this one.
    pub(crate) fn admits(&self, signer: &CommitSigner) -> bool {
        match (self, signer) {
            (AllowedSigner::Ssh(key), CommitSigner::Ssh(locked)) => {
                ssh_key::PublicKey::from_openssh(locked)
                    .is_ok_and(|locked| locked.key_data() == key.key_data())
            }
            (AllowedSigner::Gpg(fingerprint), CommitSigner::Gpg(locked)) => fingerprint == locked,
            (
                AllowedSigner::Sigstore {
                    identity,
                    regexp,
                    issuer,
                },
                CommitSigner::Sigstore {
                    identity: signed,
                    issuer: signed_issuer,
                },
            ) => {
                issuer == signed_issuer
                    && match regexp {
                        false => identity == signed,
                        true => regex::Regex::new(&format!("^(?:{identity})$"))
                            .is_ok_and(|pattern| pattern.is_match(signed)),
                    }
            }
            _ => false,
        }
    }
}

/// A `sigstore:IDENTITY,ISSUER` (or `sigstore-regexp:PATTERN,ISSUER`)
/// signer, `rest` being what follows the prefix of `text`. The issuer is
/// what follows the last comma: an OIDC issuer is an `https` URL, which
/// holds none, while a workflow identity's ref may.
fn sigstore_signer(text: &str, rest: &str, regexp: bool) -> Result<AllowedSigner, String> {
    let wrong = |why: &str| {
        format!(
            "'{text}' is no Sigstore signer: {why} (give `sigstore:IDENTITY,ISSUER`, e.g. `sigstore:dev@acme.com,https://accounts.google.com`)"
        )
    };
    let Some((identity, issuer)) = rest.rsplit_once(',') else {
        return Err(wrong("it names no issuer"));
    };
    let (identity, issuer) = (identity.trim(), issuer.trim());
    if identity.is_empty() {
        return Err(wrong("it names no identity"));
    }
    if !issuer.starts_with("https://") && !issuer.starts_with("http://") {
        return Err(wrong(&format!("the issuer {issuer:?} is not a URL")));
    }
    if regexp && let Err(e) = regex::Regex::new(&format!("^(?:{identity})$")) {
        return Err(wrong(&format!("{identity:?} is not a regex: {e}")));
    }
    Ok(AllowedSigner::Sigstore {
        identity: identity.to_string(),
        regexp,
        issuer: issuer.to_string(),
    })
}

/// Reads every `signed-by` entry of the skill `name`.
pub(crate) fn allowed_signers(name: &str, texts: &[String]) -> anyhow::Result<Vec<AllowedSigner>> {
    texts
        .iter()
        .map(|text| {
            AllowedSigner::parse(text)
                .map_err(|problem| unreadable(&format!("'{name}': signed-by"), &problem).into())
        })
        .collect()
}

/// The error for a signer that cannot be read (`what`: where it was
/// given).
pub(crate) fn unreadable(what: &str, problem: &str) -> Hinted {
    Hinted::new(format!("{what}: {problem}")).hint(
        "`ssh-keygen -y -f KEY` prints an SSH key's public line, `gpg --fingerprint ID` a GPG key's fingerprint; a gitsign signer is the email (or URI) and OIDC issuer its certificate names",
    )
}

/// Where a commit comes from, for messages.
pub(crate) struct CommitPlace<'a> {
    /// The dependency's key in `skills.toml`.
    pub name: &'a str,
    /// The repository, without credentials.
    pub url: &'a str,
    /// The commit.
    pub commit: git2::Oid,
}

impl CommitPlace<'_> {
    /// The refusal of this commit, for `why`.
    pub(crate) fn refusal(&self, why: &str) -> Hinted {
        Hinted::new(format!(
            "'{}': commit {} of {} {why}",
            self.name, self.commit, self.url
        ))
    }
}

/// The check of an X.509 commit signature: given the armoured signature
/// and the bytes it signs, who made it (one of the allowed signers), or a
/// refusal naming the commit.
pub(crate) type X509Check<'a> = dyn Fn(&str, &[u8]) -> anyhow::Result<CommitSigner> + 'a;

/// Checks that `commit` of `repo` is signed by one of `allowed`, and says
/// by whom; an X.509 signature is checked by `x509`. Errors name the
/// commit, the repository, the signer found and the signers allowed.
pub(crate) fn verify_commit(
    repo: &git2::Repository,
    place: &CommitPlace,
    allowed: &[AllowedSigner],
    x509: &X509Check,
) -> anyhow::Result<CommitSigner> {
    let (signature, signed) = match repo.extract_signature(&place.commit, None) {
        Ok(pair) => pair,
        Err(e) if e.code() == git2::ErrorCode::NotFound => bail!(
            place
                .refusal("is not signed, and skills.toml asks for a signed one (`signed-by`)")
                .hint(
                    "ask the repository's owners to sign their commits (`git commit -S`), or pin a signed commit with `rev`"
                )
        ),
        Err(e) => return Err(e).context(format!("could not read commit {}", place.commit)),
    };
    let signature = String::from_utf8_lossy(&signature);
    if signature.contains("-----BEGIN SSH SIGNATURE-----") {
        verify_ssh(&signature, &signed, place, allowed)
    } else if signature.contains("-----BEGIN PGP SIGNATURE-----") {
        verify_gpg(&signature, &signed, place, allowed)
    } else if signature.contains("-----BEGIN SIGNED MESSAGE-----") {
        if !allowed
            .iter()
            .any(|a| matches!(a, AllowedSigner::Sigstore { .. }))
        {
            bail!(not_allowed(
                place,
                "a Sigstore certificate (gitsign)",
                allowed
            ));
        }
        x509(&signature, &signed)
    } else {
        bail!(place.refusal("carries a signature of a kind skillpkg does not know"))
    }
}

/// The SSH signature `armored` over `signed`.
fn verify_ssh(
    armored: &str,
    signed: &[u8],
    place: &CommitPlace,
    allowed: &[AllowedSigner],
) -> anyhow::Result<CommitSigner> {
    let signature = ssh_key::SshSig::from_pem(armored.trim()).map_err(|e| {
        place.refusal(&format!(
            "carries an SSH signature that cannot be read: {e}"
        ))
    })?;
    let key = allowed.iter().find_map(|a| match a {
        AllowedSigner::Ssh(key) if key.key_data() == signature.public_key() => Some(key),
        _ => None,
    });
    let Some(key) = key else {
        let found = ssh_key::PublicKey::from(signature.public_key().clone());
        bail!(not_allowed(
            place,
            &format!(
                "SSH key {} ({})",
                found.fingerprint(ssh_key::HashAlg::Sha256),
                found.algorithm()
            ),
            allowed
        ));
    };
    key.verify("git", signed, &signature).map_err(|e| {
        place.refusal(&format!(
            "carries an SSH signature by {} that does not verify ({e}): the commit was changed after it was signed",
            key.fingerprint(ssh_key::HashAlg::Sha256)
        ))
    })?;
    let mut bare = key.clone();
    bare.set_comment("");
    let line = bare
        .to_openssh()
        .context("could not write an SSH public key")?;
    Ok(CommitSigner::Ssh(line.trim().to_string()))
}

/// How long `gpg` may take to check one signature.
const GPG_TIMEOUT: Duration = Duration::from_secs(60);

/// The OpenPGP signature `armored` over `signed`, checked by `gpg` (the
/// program `SKILLPKG_GPG` names, default `gpg`) against the user's keyring.
fn verify_gpg(
    armored: &str,
    signed: &[u8],
    place: &CommitPlace,
    allowed: &[AllowedSigner],
) -> anyhow::Result<CommitSigner> {
    if !allowed.iter().any(|a| matches!(a, AllowedSigner::Gpg(_))) {
        bail!(not_allowed(place, "a GPG key", allowed));
    }
    let scratch = tempfile::NamedTempFile::new()?;
    fs_err::write(scratch.path(), armored)?;
    let program = std::env::var_os("SKILLPKG_GPG").unwrap_or_else(|| "gpg".into());
    let mut command = Command::new(&program);
    command
        .args(["--batch", "--no-tty", "--status-fd", "1", "--verify"])
        .arg(scratch.path())
        .arg("-");
    // gpg may stop reading early on a bad signature: its verdict says so.
    let output =
        crate::process::run_with_input(&mut command, signed, GPG_TIMEOUT).map_err(|e| {
            place
                .refusal(&format!(
                    "carries a GPG signature, and {} could not be run to check it: {e}",
                    program.to_string_lossy()
                ))
                .hint("install GnuPG (or set SKILLPKG_GPG to its program)")
        })?;
    let status = String::from_utf8_lossy(&output.stdout);
    let verdict = GpgStatus::read(&status);
    let Some((key, primary)) = verdict.valid else {
        if let Some(id) = verdict.missing {
            bail!(
                place
                    .refusal(&format!(
                        "is signed by GPG key {id}, which is not in your keyring"
                    ))
                    .hint(format!(
                        "import the signer's public key (`gpg --recv-keys {id}` or `gpg --import FILE`), then try again"
                    ))
            );
        }
        bail!(place.refusal("carries a GPG signature that does not verify"));
    };
    let admitted = allowed
        .iter()
        .any(|a| matches!(a, AllowedSigner::Gpg(f) if *f == key || *f == primary));
    if !admitted {
        bail!(not_allowed(place, &format!("GPG key {primary}"), allowed));
    }
    Ok(CommitSigner::Gpg(primary))
}

/// What `gpg --status-fd` said of a signature.
#[derive(Debug, Default, PartialEq, Eq)]
struct GpgStatus {
    /// The signing key's fingerprint and its primary key's, of a good,
    /// valid signature.
    valid: Option<(String, String)>,
    /// The long id of a key the keyring lacks.
    missing: Option<String>,
}

impl GpgStatus {
    fn read(status: &str) -> GpgStatus {
        let mut good = false;
        let mut verdict = GpgStatus::default();
        let mut valid = None;
        for line in status.lines() {
            let mut words = line.split_whitespace();
            if words.next() != Some("[GNUPG:]") {
                continue;
            }
            match words.next() {
                Some("GOODSIG") => good = true,
                // A bad or expired signature, or a revoked key, is no
                // verdict to take: only GOODSIG with VALIDSIG is.
                Some("ERRSIG") => {
                    verdict.missing = words.next().map(str::to_string);
                    return verdict;
                }
                // A bad or expired signature, or a revoked key, is no
                // verdict to take: only GOODSIG with VALIDSIG is.
                Some("BADSIG" | "EXPSIG" | "EXPKEYSIG" | "REVKEYSIG") => return verdict,
                Some("NO_PUBKEY") => verdict.missing = words.next().map(str::to_string),
                Some("VALIDSIG") => {
                    let fields: Vec<String> = words.map(str::to_ascii_uppercase).collect();
                    if let Some(key) = fields.first() {
                        let primary = fields.get(9).unwrap_or(key);
                        valid = Some((key.clone(), primary.clone()));
                    }
                }
                _ => {}
            }
        }
        if good {
            verdict.valid = valid;
        }
        verdict
    }
}

/// The refusal of a commit signed by `found`, which no allowed signer is.
pub(crate) fn not_allowed(place: &CommitPlace, found: &str, allowed: &[AllowedSigner]) -> Hinted {
    let names: Vec<String> = allowed.iter().map(shown).collect();
    place
        .refusal(&format!(
            "is signed by {found}, which is not a signer skills.toml names (signed-by: {})",
            names.join(", ")
        ))
        .hint(
            "if that signer is one of the repository's owners, add it to `signed-by` in skills.toml",
        )
}

/// How messages show an allowed signer.
fn shown(signer: &AllowedSigner) -> String {
    match signer {
        AllowedSigner::Ssh(key) => format!(
            "SSH key {} ({})",
            key.fingerprint(ssh_key::HashAlg::Sha256),
            key.algorithm()
        ),
        AllowedSigner::Gpg(fingerprint) => format!("GPG key {fingerprint}"),
        AllowedSigner::Sigstore {
            identity,
            regexp,
            issuer,
        } => match regexp {
            true => format!("an identity matching /{identity}/ (issuer {issuer})"),
            false => format!("{identity} (issuer {issuer})"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL9+kelccF2RdFV5CCuht8AaIzivMSML0/bydUx+Jzjx alice@example.com";

    #[test]
    fn signers_are_ssh_keys_or_gpg_fingerprints() {
        let AllowedSigner::Ssh(key) = AllowedSigner::parse(KEY).unwrap() else {
            panic!("an SSH key");
        };
        assert_eq!(key.comment(), "alice@example.com");
        assert_eq!(
            AllowedSigner::parse("gpg:0123 4567 89ab cdef 0123 4567 89AB CDEF 0123 4567").unwrap(),
            AllowedSigner::Gpg("0123456789ABCDEF0123456789ABCDEF01234567".into())
        );
        assert!(
            AllowedSigner::parse("gpg:ABCDEF")
                .unwrap_err()
                .contains("fingerprint")
        );
        assert!(
            AllowedSigner::parse("alice@example.com")
                .unwrap_err()
                .contains("OpenSSH")
        );
    }

    #[test]
    fn sigstore_signers_are_an_identity_and_an_issuer() {
        let workflow = "sigstore:https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/a,b,https://token.actions.githubusercontent.com";
        assert_eq!(
            AllowedSigner::parse(workflow).unwrap(),
            AllowedSigner::Sigstore {
                identity:
                    "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/a,b"
                        .into(),
                regexp: false,
                issuer: "https://token.actions.githubusercontent.com".into()
            }
        );
        let pattern =
            AllowedSigner::parse(r"sigstore-regexp:.*@acme\.com,https://accounts.google.com")
                .unwrap();
        let signed = |identity: &str, issuer: &str| CommitSigner::Sigstore {
            identity: identity.into(),
            issuer: issuer.into(),
        };
        assert!(pattern.admits(&signed("dev@acme.com", "https://accounts.google.com")));
        assert!(!pattern.admits(&signed("dev@acme.com.evil", "https://accounts.google.com")));
        assert!(!pattern.admits(&signed("dev@acme.com", "https://github.com/login/oauth")));
        for wrong in [
            "sigstore:dev@acme.com",
            "sigstore:,https://accounts.google.com",
            "sigstore:dev@acme.com,accounts.google.com",
            "sigstore-regexp:(,https://accounts.google.com",
        ] {
            assert!(
                AllowedSigner::parse(wrong)
                    .unwrap_err()
                    .contains("no Sigstore signer"),
                "{wrong}"
            );
        }
    }

    #[test]
    fn a_locked_ssh_signer_is_admitted_by_its_key_whatever_its_comment() {
        let allowed = AllowedSigner::parse(KEY).unwrap();
        let bare = KEY.rsplit_once(' ').unwrap().0;
        assert!(allowed.admits(&CommitSigner::Ssh(bare.into())));
        assert!(!allowed.admits(&CommitSigner::Gpg("AB".into())));
    }

    #[test]
    fn only_a_good_and_valid_gpg_signature_counts() {
        let good = "[GNUPG:] NEWSIG\n[GNUPG:] GOODSIG 89ABCDEF01234567 Alice\n[GNUPG:] VALIDSIG 1111111111111111111111111111111111111111 2026-12-06 1765000000 0 4 0 22 10 00 2222222222222222222222222222222222222222\n";
        assert_eq!(
            GpgStatus::read(good).valid,
            Some((
                "1111111111111111111111111111111111111111".into(),
                "2222222222222222222222222222222222222222".into()
            ))
        );
        let expired = format!("{good}[GNUPG:] EXPKEYSIG 89ABCDEF01234567 Alice\n");
        assert_eq!(GpgStatus::read(&expired).valid, None);
        let missing = "[GNUPG:] ERRSIG 89ABCDEF01234567 22 10 00 1765000000 9 -\n[GNUPG:] NO_PUBKEY 89ABCDEF01234567\n";
        assert_eq!(
            GpgStatus::read(missing).missing.as_deref(),
            Some("89ABCDEF01234567")
        );
        assert_eq!(GpgStatus::read("[GNUPG:] VALIDSIG 11 x\n").valid, None);
    }
}
