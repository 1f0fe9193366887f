//! minisign signatures, byte-compatible with the `minisign` CLI.
//!
//! Signing (publish) uses the `minisign` crate; verification (install) uses
//! `minisign-verify` and accepts only prehashed signatures. The trusted
//! comment names the package, version and archive sha256, so a valid
//! signature cannot be replayed for another package.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::env_vars;

/// File name of a generated public key.
pub(crate) const PUBLIC_KEY_FILE: &str = "skillpkg.pub";
/// File name of a generated secret key.
pub(crate) const SECRET_KEY_FILE: &str = "skillpkg.key";

/// A signing or verification failure.
#[derive(Debug, thiserror::Error)]
pub enum SigningError {
    /// Reading or writing a key file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Key generation would overwrite an existing key.
    #[error("{0} already exists; refusing to overwrite a key")]
    KeyExists(PathBuf),
    /// A public key given where the secret key is needed.
    #[error("{0} is a public key; signing needs the secret key")]
    PublicKeyGiven(PathBuf),
    /// A secret key file that other users can read.
    #[error("{path} can be read by other users (mode {mode:o}); not signing with it")]
    KeyReadable {
        /// The key file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The minisign crate refused.
    #[error("{context}: {message}")]
    Minisign {
        /// What was being done.
        context: String,
        /// The crate's message.
        message: String,
    },
    /// `keygen` of an encrypted key with no password and no terminal.
    #[error("no terminal to ask for a new password to encrypt the secret key")]
    NoNewPassword,
    /// No password and no terminal to ask on.
    #[error(
        "the secret key is password-protected and there is no terminal to ask for the password"
    )]
    NoPassword,
    /// A public key that is not a minisign key.
    #[error("'{key}' is not a minisign public key: {message}")]
    BadPublicKey {
        /// The key text.
        key: String,
        /// Why.
        message: String,
    },
    /// A signature that does not parse.
    #[error("the signature is malformed: {0}")]
    BadSignature(String),
    /// The signature does not match the data and key.
    #[error("the signature does not verify with key {key}: {message}")]
    Invalid {
        /// The public key used.
        key: String,
        /// Why.
        message: String,
    },
    /// A valid signature for something else.
    #[error(
        "the signature is for '{found}', not '{expected}' (a signature replayed from another package or version?)"
    )]
    WrongComment {
        /// The trusted comment required.
        expected: String,
        /// The trusted comment found.
        found: String,
    },
}

fn minisign_error(context: &str) -> impl FnOnce(minisign::PError) -> SigningError + '_ {
    move |e| SigningError::Minisign {
        context: context.to_string(),
        message: e.to_string(),
    }
}

/// The trusted comment a package's signature carries.
pub fn trusted_comment(package: &str, version: &str, sha256_hex: &str) -> String {
    format!("skillpkg {package}@{version} sha256:{sha256_hex}")
}

/// Paths of a freshly written key pair and the public key's base64 line.
#[derive(Debug, Clone)]
pub struct GeneratedKeys {
    /// The `.pub` file.
    pub public_key_file: PathBuf,
    /// The secret key file.
    pub secret_key_file: PathBuf,
    /// The public key (the second line of the `.pub` file).
    pub public_key: String,
}

fn password_from_env() -> Option<String> {
    std::env::var(env_vars::SKILLPKG_KEY_PASSWORD).ok()
}

/// Writes a new key pair into `dir`: `skillpkg.pub` and `skillpkg.key`
/// (mode 0600). With `password` false the secret key is not encrypted;
/// otherwise the password comes from `SKILLPKG_KEY_PASSWORD` or a prompt.
pub fn generate_keys(dir: &Path, password: bool) -> Result<GeneratedKeys, SigningError> {
    let public_key_file = dir.join(PUBLIC_KEY_FILE);
    let secret_key_file = dir.join(SECRET_KEY_FILE);
    for path in [&public_key_file, &secret_key_file] {
        if path.exists() {
            return Err(SigningError::KeyExists(path.clone()));
        }
    }
    let keys = if password {
        let pass = password_from_env();
        if pass.is_none() && !std::io::stdin().is_terminal() {
            return Err(SigningError::NoNewPassword);
        }
        minisign::KeyPair::generate_encrypted_keypair(pass)
            .map_err(minisign_error("generating a key pair"))?
    } else {
        minisign::KeyPair::generate_unencrypted_keypair()
            .map_err(minisign_error("generating a key pair"))?
    };
    let public_text = keys
        .pk
        .to_box()
        .map_err(minisign_error("encoding the public key"))?
        .into_string();
    let secret_text = keys
        .sk
        .to_box(None)
        .map_err(minisign_error("encoding the secret key"))?
        .into_string();
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SigningError::Io { path, source }
    };
    fs_err::create_dir_all(dir).map_err(io(dir))?;
    write_private(&secret_key_file, secret_text.as_bytes()).map_err(io(&secret_key_file))?;
    fs_err::write(&public_key_file, public_text).map_err(io(&public_key_file))?;
    Ok(GeneratedKeys {
        public_key: keys.pk.to_base64(),
        public_key_file,
        secret_key_file,
    })
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(bytes)
}

/// A secret key ready to sign, with its public key.
pub struct SigningKey {
    secret: minisign::SecretKey,
    public: minisign::PublicKey,
}

impl SigningKey {
    /// Loads a minisign secret key file, asking for its password when it is
    /// encrypted (from `SKILLPKG_KEY_PASSWORD`, else a terminal prompt).
    pub fn load(path: &Path) -> Result<SigningKey, SigningError> {
        let text = fs_err::read_to_string(path).map_err(|source| SigningError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if text
            .lines()
            .next()
            .is_some_and(|comment| comment.contains("public key"))
            || minisign::PublicKeyBox::from_string(&text)
                .and_then(|b| b.into_public_key())
                .is_ok()
        {
            return Err(SigningError::PublicKeyGiven(path.to_path_buf()));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs_err::metadata(path)
                .map_err(|source| SigningError::Io {
                    path: path.to_path_buf(),
                    source,
                })?
                .permissions()
                .mode();
            if mode & 0o077 != 0 {
                return Err(SigningError::KeyReadable {
                    path: path.to_path_buf(),
                    mode: mode & 0o777,
                });
            }
        }
        let sk_box = minisign::SecretKeyBox::from_string(&text)
            .map_err(minisign_error("reading the secret key"))?;
        let context = format!("reading secret key {}", path.display());
        let secret = match sk_box.clone().into_unencrypted_secret_key() {
            Ok(secret) => secret,
            Err(_) => {
                let password = password_from_env();
                if password.is_none() && !std::io::stdin().is_terminal() {
                    return Err(SigningError::NoPassword);
                }
                sk_box
                    .into_secret_key(password)
                    .map_err(minisign_error(&context))?
            }
        };
        let public =
            minisign::PublicKey::from_secret_key(&secret).map_err(minisign_error(&context))?;
        Ok(SigningKey { secret, public })
    }

    /// The public key's base64 line.
    pub fn public_key(&self) -> String {
        self.public.to_base64()
    }

    /// Signs `data`; returns the full text of a `.minisig` file.
    pub fn sign(&self, data: &[u8], trusted_comment: &str) -> Result<String, SigningError> {
        self.sign_reader(data, trusted_comment)
    }

    /// Signs what `data` reads, streamed: the signature is prehashed
    /// (minisign's default, BLAKE2b-512 of the data, signed with Ed25519),
    /// so the data is read in pieces and never held whole. The `minisign`
    /// CLI verifies it (`minisign -V`).
    pub(crate) fn sign_reader(
        &self,
        data: impl std::io::Read,
        trusted_comment: &str,
    ) -> Result<String, SigningError> {
        let signature = minisign::sign(
            Some(&self.public),
            &self.secret,
            data,
            Some(trusted_comment),
            Some("signature from skillpkg secret key"),
        )
        .map_err(minisign_error("signing"))?;
        Ok(signature.into_string())
    }
}

/// The key id a minisign public key (its base64 line) carries, if it is
/// one: the 8 bytes after the algorithm.
pub(crate) fn public_key_id(public_key: &str) -> Option<[u8; 8]> {
    key_id_in(public_key.trim())
}

/// The id of the key that made the `.minisig` text `signature`, if it
/// parses: its second line carries it after the algorithm.
pub(crate) fn signature_key_id(signature: &str) -> Option<[u8; 8]> {
    key_id_in(signature.lines().nth(1)?.trim())
}

fn key_id_in(base64_line: &str) -> Option<[u8; 8]> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(base64_line)
        .ok()?;
    bytes.get(2..10)?.try_into().ok()
}

/// Verifies the `.minisig` text `signature` over `data` with the public key
/// `public_key` (base64 line) and returns its trusted comment.
pub fn verify(public_key: &str, data: &[u8], signature: &str) -> Result<String, SigningError> {
    verify_reader(public_key, data, signature)
}

/// [`verify`] of what `data` reads, streamed through the prehashed
/// signature's BLAKE2b in pieces (legacy, unhashed signatures are
/// refused). A read error counts as data that does not verify.
pub(crate) fn verify_reader(
    public_key: &str,
    mut data: impl std::io::Read,
    signature: &str,
) -> Result<String, SigningError> {
    let key = minisign_verify::PublicKey::from_base64(public_key.trim()).map_err(|e| {
        SigningError::BadPublicKey {
            key: public_key.to_string(),
            message: e.to_string(),
        }
    })?;
    let signature = minisign_verify::Signature::decode(signature)
        .map_err(|e| SigningError::BadSignature(e.to_string()))?;
    let invalid = |message: String| SigningError::Invalid {
        key: public_key.to_string(),
        message,
    };
    let mut verifier = key
        .verify_stream(&signature)
        .map_err(|e| invalid(e.to_string()))?;
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match data.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => verifier.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(invalid(format!("could not read the data: {e}"))),
        }
    }
    verifier.finalize().map_err(|e| invalid(e.to_string()))?;
    Ok(signature.trusted_comment().to_string())
}

/// Verifies only the trusted comment of the `.minisig` text `signature`:
/// its global signature (Ed25519 over the data's signature and the
/// comment) by `public_key`, without the data. What the comment says is
/// then the key holder's word, about data that is checked later (an
/// install verifies the whole signature over the archive it downloads).
pub(crate) fn verify_comment(public_key: &str, signature: &str) -> Result<String, SigningError> {
    use base64::Engine as _;
    let key_bytes = base64::engine::general_purpose::STANDARD
        .decode(public_key.trim())
        .ok()
        .filter(|bytes| bytes.len() == 42)
        .ok_or_else(|| SigningError::BadPublicKey {
            key: public_key.to_string(),
            message: "not a base64 Ed25519 minisign key".into(),
        })?;
    let decoded = minisign_verify::Signature::decode(signature)
        .map_err(|e| SigningError::BadSignature(e.to_string()))?;
    let mut lines = signature.lines();
    let data_signature = lines.nth(1).and_then(|line| {
        base64::engine::general_purpose::STANDARD
            .decode(line.trim())
            .ok()
    });
    let global = lines.nth(1).and_then(|line| {
        base64::engine::general_purpose::STANDARD
            .decode(line.trim())
            .ok()
    });
    let (Some(data_signature), Some(global)) = (data_signature, global) else {
        return Err(SigningError::BadSignature("no signature lines".into()));
    };
    let invalid = |message: &str| SigningError::Invalid {
        key: public_key.to_string(),
        message: message.to_string(),
    };
    if data_signature.get(2..10) != key_bytes.get(2..10) {
        return Err(invalid("the signature names another key"));
    }
    let comment = decoded.trusted_comment();
    let mut message = data_signature[10..].to_vec();
    message.extend_from_slice(comment.as_bytes());
    ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, &key_bytes[10..])
        .verify(&message, &global)
        .map_err(|_| invalid("the trusted comment's signature does not verify"))?;
    Ok(comment.to_string())
}

/// The trusted comment of the `.minisig` text `signature`, unverified;
/// `None` when it does not parse.
pub(crate) fn claimed_comment(signature: &str) -> Option<String> {
    minisign_verify::Signature::decode(signature)
        .ok()
        .map(|s| s.trusted_comment().to_string())
}

/// The channels a package signature's trusted comment may name (the
/// index's vocabulary, `index::channel`, spelled out here below it).
const CHANNEL_NAMES: [&str; 4] = ["draft", "testing", "published", "deprecated"];

/// The trusted comment a package's signature `signature` must carry:
/// [`trusted_comment`] of the package, version and archive, followed by
/// ` channel=NAME` when the signature names a channel (packages signed
/// since channels exist do).
pub(crate) fn package_comment(
    signature: &str,
    package: &str,
    version: &str,
    sha256_hex: &str,
) -> String {
    let base = trusted_comment(package, version, sha256_hex);
    match claimed_comment(signature) {
        Some(claimed)
            if claimed
                .strip_prefix(&base)
                .and_then(|rest| rest.strip_prefix(" channel="))
                .is_some_and(|name| CHANNEL_NAMES.contains(&name)) =>
        {
            claimed
        }
        _ => base,
    }
}

/// Verifies like [`verify`] and also requires the trusted comment to be
/// exactly `expected_comment`.
pub fn verify_for(
    public_key: &str,
    data: &[u8],
    signature: &str,
    expected_comment: &str,
) -> Result<(), SigningError> {
    verify_reader_for(public_key, data, signature, expected_comment)
}

/// [`verify_for`] of what `data` reads, streamed.
pub(crate) fn verify_reader_for(
    public_key: &str,
    data: impl std::io::Read,
    signature: &str,
    expected_comment: &str,
) -> Result<(), SigningError> {
    let found = verify_reader(public_key, data, signature)?;
    if found != expected_comment {
        return Err(SigningError::WrongComment {
            expected: expected_comment.to_string(),
            found,
        });
    }
    Ok(())
}

/// Reads the public key (base64 line) from a minisign `.pub` file, or
/// returns `key` itself when it is already a base64 key.
pub(crate) fn read_public_key(key: &str) -> Result<String, SigningError> {
    let path = Path::new(key);
    let text = if path.is_file() {
        fs_err::read_to_string(path).map_err(|source| SigningError::Io {
            path: path.to_path_buf(),
            source,
        })?
    } else {
        key.to_string()
    };
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("untrusted comment:"))
        .unwrap_or_default()
        .to_string();
    minisign_verify::PublicKey::from_base64(&line).map_err(|e| SigningError::BadPublicKey {
        key: key.to_string(),
        message: e.to_string(),
    })?;
    Ok(line)
}

impl crate::hint::Advice for SigningError {
    /// What the user can do about it, when there is something.
    fn hints(&self) -> Vec<String> {
        let hint: Option<String> = match self {
            SigningError::KeyReadable { path, .. } => Some(format!(
                "chmod 600 {}, and consider the key exposed: make a new one with `skillpkg keygen` if others may have read it",
                crate::hint::shell_path(path)
            )),
            SigningError::PublicKeyGiven(path) => Some(match path.with_extension("key") {
                secret if secret.is_file() => {
                    format!(
                        "give its secret key: --key {}",
                        crate::hint::shell_path(&secret)
                    )
                }
                _ => "give the secret key `skillpkg keygen` wrote beside it (skillpkg.key)".into(),
            }),
            SigningError::KeyExists(_) => {
                Some("choose another directory with --out, or move the old key away".into())
            }
            SigningError::NoNewPassword => Some(format!(
                "set {} to the new password, or pass --no-password for an unencrypted key",
                env_vars::SKILLPKG_KEY_PASSWORD
            )),
            SigningError::NoPassword => Some(format!(
                "set {} to the password",
                env_vars::SKILLPKG_KEY_PASSWORD
            )),
            _ => None,
        };
        hint.into_iter().collect()
    }
}

/// A new unencrypted key pair in a temporary folder (which lives as long
/// as the returned guard), for tests.
#[cfg(test)]
pub(crate) fn throwaway_key() -> (tempfile::TempDir, SigningKey) {
    let dir = tempfile::tempdir().unwrap();
    generate_keys(dir.path(), false).unwrap();
    let key = SigningKey::load(&dir.path().join(SECRET_KEY_FILE)).unwrap();
    (dir, key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_then_verify_and_refuse_tampering() {
        let dir = tempfile::tempdir().unwrap();
        let keys = generate_keys(dir.path(), false).unwrap();
        let key = SigningKey::load(&keys.secret_key_file).unwrap();
        assert_eq!(key.public_key(), keys.public_key);
        let comment = trusted_comment("acme/x", "1.0.0", "ab");
        let sig = key.sign(b"data", &comment).unwrap();
        verify_for(&keys.public_key, b"data", &sig, &comment).unwrap();
        assert!(matches!(
            verify(&keys.public_key, b"dato", &sig),
            Err(SigningError::Invalid { .. })
        ));
        let other = trusted_comment("acme/y", "1.0.0", "ab");
        assert!(matches!(
            verify_for(&keys.public_key, b"data", &sig, &other),
            Err(SigningError::WrongComment { .. })
        ));
        assert!(matches!(
            generate_keys(dir.path(), false),
            Err(SigningError::KeyExists(_))
        ));
        assert_eq!(
            read_public_key(keys.public_key_file.to_str().unwrap()).unwrap(),
            keys.public_key
        );
    }

    #[test]
    fn a_trusted_comment_verifies_without_the_data() {
        let dir = tempfile::tempdir().unwrap();
        let keys = generate_keys(dir.path(), false).unwrap();
        let key = SigningKey::load(&keys.secret_key_file).unwrap();
        let other_dir = tempfile::tempdir().unwrap();
        let other = generate_keys(other_dir.path(), false).unwrap();
        let comment = format!("{} channel=draft", trusted_comment("acme/x", "1.0.0", "ab"));
        let sig = key.sign(b"data", &comment).unwrap();
        assert_eq!(verify_comment(&keys.public_key, &sig).unwrap(), comment);
        assert!(verify_comment(&other.public_key, &sig).is_err());
        // The comment edited from draft to published.
        let edited = sig.replace("channel=draft", "channel=published");
        assert!(matches!(
            verify_comment(&keys.public_key, &edited),
            Err(SigningError::Invalid { .. })
        ));
        assert_eq!(package_comment(&sig, "acme/x", "1.0.0", "ab"), comment);
        assert_eq!(
            package_comment(&edited, "acme/x", "1.0.0", "ab"),
            edited_comment(&edited)
        );
        assert_eq!(
            package_comment(&sig, "acme/x", "1.0.1", "ab"),
            trusted_comment("acme/x", "1.0.1", "ab")
        );
    }

    fn edited_comment(signature: &str) -> String {
        claimed_comment(signature).unwrap()
    }
}
