//! OpenSSF Model Signing (OMS) over a skill folder, verified as PyPI
//! `model-signing` 1.1.1 verifies it (docs/provenance.md, "OMS"): a
//! Sigstore bundle v0.3 (`skill.oms.sig` in the folder) whose DSSE envelope
//! holds an in-toto statement listing every file's sha256, signed by a
//! certificate that chains to a given root, or by a given key. The
//! statement is then held against the folder as it is on disk
//! ([`folder`]).

mod chain;
mod folder;

use super::{Proof, Subject, Verifier};
use crate::hint::Hinted;
use crate::manifest::lock::{LockedSigner, SignerTable};
use anyhow::Context as _;
use base64::Engine as _;
use serde::Deserialize;
use serde::de::IgnoredAny;
use sigstore_verify::crypto::SigningScheme;
use sigstore_verify::types::{DerPublicKey, SignatureBytes};
use x509_cert::der::Decode as _;

/// The signature's file name in the skill folder.
pub(crate) const SIGNATURE_FILE: &str = "skill.oms.sig";

/// The one bundle media type model_signing 1.1.1 verifies.
const MEDIA_TYPE: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
/// The DSSE payload type of an in-toto statement.
const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
/// The in-toto statement's `_type`.
const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
/// The statement's `predicateType`.
const PREDICATE_TYPE: &str = "https://model_signing/signature/v1.0";

/// What the OMS signature's signer must chain to.
#[derive(Debug, Clone)]
pub(crate) enum OmsTrust {
    /// Certificate flow: PEM text holding one or more root certificates.
    Roots(String),
    /// Key flow: the signer's public key, PEM text.
    Key(String),
    /// Keyless flow (`model_signing sign sigstore`): a Fulcio certificate
    /// and a Rekor entry, checked by the Sigstore verifier against this
    /// identity policy and trusted root.
    Sigstore(super::sigstore::Policy, super::sigstore::Root),
}

/// An OMS signature over a skill folder and what it must prove.
#[derive(Debug, Clone)]
pub(crate) struct Oms {
    /// The `skill.oms.sig` bundle's JSON text.
    pub bundle: String,
    /// The root certificates or the key the signer must match.
    pub trust: OmsTrust,
    /// Check only the files the signature lists (model_signing's
    /// `--ignore_unsigned_files`): a file it does not list is let be, a
    /// listed one must still be there and unchanged.
    pub ignore_unsigned_files: bool,
}

impl Verifier for Oms {
    fn family(&self) -> &'static str {
        "oms"
    }

    fn verify(&self, subject: Subject<'_>) -> anyhow::Result<Proof> {
        let Subject::Folder(dir) = subject else {
            anyhow::bail!(
                Hinted::new("an OMS signature covers a skill folder, not a file")
                    .hint("give the signed skill folder")
            );
        };
        super::ring_provider::install();
        if let OmsTrust::Sigstore(policy, root) = &self.trust {
            return self.verify_keyless(dir, policy, root);
        }
        let bundle = Bundle::parse(&self.bundle)?;
        let (signer, key) = match &self.trust {
            OmsTrust::Roots(pem) => {
                let Some(chain) = &bundle.verification_material.x509_certificate_chain else {
                    anyhow::bail!(
                        Hinted::new("the bundle is signed by a bare key, not a certificate chain")
                            .hint("verify it with the signer's public key")
                    );
                };
                let certificates = chain
                    .certificates
                    .iter()
                    .enumerate()
                    .map(|(at, certificate)| {
                        base64_field(&certificate.raw_bytes)
                            .with_context(|| format!("certificate {at} of the bundle's chain"))
                    })
                    .collect::<anyhow::Result<Vec<_>>>()?;
                let leaf = chain::verify(&certificates, pem)?;
                (leaf.signer, leaf.key)
            }
            OmsTrust::Key(pem) => {
                let Some(named) = &bundle.verification_material.public_key else {
                    anyhow::bail!(
                        Hinted::new("the bundle is signed by a certificate chain, not a bare key")
                            .hint("verify it against the root certificate the chain leads to")
                    );
                };
                let key = DerPublicKey::from_pem(pem)
                    .context("the public key is not a PEM public key")?
                    .into_bytes();
                check_key_hint(named.hint.as_deref(), &key)?;
                let fingerprint = super::sha256(&key);
                (
                    LockedSigner::Other(SignerTable::OmsKey { key: fingerprint }),
                    key,
                )
            }
            OmsTrust::Sigstore(..) => unreachable!("the keyless flow returned above"),
        };
        let envelope = &bundle.dsse_envelope;
        let payload = base64_field(&envelope.payload).context("the envelope's payload")?;
        let signature = envelope
            .signatures
            .first()
            .context("the envelope holds no signature")?;
        let signature = base64_field(&signature.sig).context("the envelope's signature")?;
        verify_dsse(&key, &payload, &signature)?;
        if envelope.payload_type != PAYLOAD_TYPE {
            anyhow::bail!(
                "the envelope's payload type is {:?}, not {PAYLOAD_TYPE:?}",
                envelope.payload_type
            );
        }
        let signed = read_statement(&payload)?;
        let vouched = folder::check(dir, &signed, self.ignore_unsigned_files)?;
        Ok(Proof {
            signer,
            signature: super::sha256(self.bundle.as_bytes()),
            statement: None,
            vouched: Some(vouched),
            root: None,
        })
    }
}

impl Oms {
    /// The keyless flow: the statement's subject digest is what the
    /// Sigstore bundle must sign (the Sigstore verifier binds it to the
    /// in-toto subject and checks certificate, log entry and identity),
    /// then the folder is held against the statement as in the other flows.
    fn verify_keyless(
        &self,
        dir: &std::path::Path,
        policy: &super::sigstore::Policy,
        root: &super::sigstore::Root,
    ) -> anyhow::Result<Proof> {
        let bundle: serde_json::Value =
            serde_json::from_str(&self.bundle).context("the bundle is not JSON")?;
        let envelope = &bundle["dsseEnvelope"];
        if envelope["payloadType"] != PAYLOAD_TYPE {
            anyhow::bail!("the bundle holds no in-toto DSSE envelope ({PAYLOAD_TYPE})");
        }
        let payload = base64_field(envelope["payload"].as_str().unwrap_or_default())
            .context("the envelope's payload")?;
        let signed = read_statement(&payload)?;
        let statement: Statement =
            serde_json::from_slice(&payload).context("the signed statement cannot be read")?;
        let subject: [u8; 32] = statement
            .subject
            .first()
            .and_then(|subject| crate::store::hash::unhex(&subject.digest.sha256))
            .and_then(|bytes| bytes.try_into().ok())
            .context("the statement's subject digest is not a sha256")?;
        let verified = super::sigstore::Sigstore {
            bundle: self.bundle.clone(),
            policy: policy.clone(),
            root: root.clone(),
        }
        .verify(Subject::Sha256(subject))?;
        let vouched = folder::check(dir, &signed, self.ignore_unsigned_files)?;
        Ok(Proof {
            signer: verified.signer,
            signature: super::sha256(self.bundle.as_bytes()),
            statement: None,
            vouched: Some(vouched),
            root: None,
        })
    }
}

/// A Sigstore bundle as model_signing writes it: no field it does not know.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Bundle {
    /// Checked before the rest is read.
    #[serde(rename = "mediaType")]
    _media_type: IgnoredAny,
    verification_material: Material,
    dsse_envelope: Envelope,
}

/// Who signed: a certificate chain, or a hint at a key given apart.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Material {
    public_key: Option<KeyHint>,
    x509_certificate_chain: Option<CertificateChain>,
    /// Always empty from model_signing; never read, as the reference.
    #[serde(rename = "tlogEntries")]
    _tlog_entries: Option<IgnoredAny>,
    /// Never read, as the reference.
    #[serde(rename = "timestampVerificationData")]
    _timestamp_verification_data: Option<IgnoredAny>,
}

/// `verificationMaterial.publicKey`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KeyHint {
    /// Hex sha256 of the key's PEM text, as Python `cryptography` writes it.
    hint: Option<String>,
    /// Dropped unread by the reference, and here.
    #[serde(rename = "rawBytes")]
    _raw_bytes: Option<IgnoredAny>,
    /// Dropped unread by the reference, and here.
    #[serde(rename = "keyDetails")]
    _key_details: Option<IgnoredAny>,
}

/// `verificationMaterial.x509CertificateChain`: the leaf first.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CertificateChain {
    certificates: Vec<RawCertificate>,
}

/// One DER certificate, base64.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawCertificate {
    raw_bytes: String,
}

/// The DSSE envelope.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Envelope {
    payload: String,
    payload_type: String,
    signatures: Vec<EnvelopeSignature>,
}

/// One DSSE signature; only the first counts, and its key id never.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvelopeSignature {
    sig: String,
    #[serde(rename = "keyid")]
    _keyid: Option<IgnoredAny>,
}

impl Bundle {
    /// Reads the bundle, refusing any media type but v0.3 first.
    fn parse(text: &str) -> anyhow::Result<Bundle> {
        let value: serde_json::Value =
            serde_json::from_str(text).context("the bundle is not JSON")?;
        let media_type = value.get("mediaType").and_then(|v| v.as_str());
        if media_type != Some(MEDIA_TYPE) {
            anyhow::bail!(
                "the bundle's media type is {}, not {MEDIA_TYPE} (the only one OMS signatures use)",
                media_type.map_or("missing".to_owned(), |t| format!("{t:?}"))
            );
        }
        serde_json::from_value(value).context("the bundle cannot be read")
    }
}

/// A base64 field's bytes.
fn base64_field(text: &str) -> anyhow::Result<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .context("not base64")
}

/// The key's PEM text as Python `cryptography` writes it, whose sha256 the
/// bundle's hint is.
fn canonical_pem(der: &[u8]) -> String {
    let body = base64::engine::general_purpose::STANDARD.encode(der);
    let mut pem = String::from("-----BEGIN PUBLIC KEY-----\n");
    for line in body.as_bytes().chunks(64) {
        pem.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        pem.push('\n');
    }
    pem.push_str("-----END PUBLIC KEY-----\n");
    pem
}

/// The key flow's hint, when the bundle gives one, must name the key given.
fn check_key_hint(hint: Option<&str>, key: &[u8]) -> anyhow::Result<()> {
    let Some(hint) = hint.filter(|hint| !hint.is_empty()) else {
        return Ok(());
    };
    let expected = crate::store::hash::sha256_hex(canonical_pem(key).as_bytes());
    if hint != expected {
        anyhow::bail!(
            Hinted::new(format!(
                "the bundle names key {hint} (sha256 of its PEM), not the key given ({expected})"
            ))
            .hint("give the public key that signed the folder")
        );
    }
    Ok(())
}

/// The ECDSA scheme of an EC key: its curve and the hash model_signing
/// pairs with it.
fn scheme_of(spki: &[u8]) -> anyhow::Result<SigningScheme> {
    use x509_cert::der::oid::ObjectIdentifier as Oid;
    const EC_PUBLIC_KEY: Oid = Oid::new_unwrap("1.2.840.10045.2.1");
    const P256: Oid = Oid::new_unwrap("1.2.840.10045.3.1.7");
    const P384: Oid = Oid::new_unwrap("1.3.132.0.34");
    const P521: Oid = Oid::new_unwrap("1.3.132.0.35");
    let info = x509_cert::spki::SubjectPublicKeyInfoRef::from_der(spki)
        .context("the signer's public key cannot be read")?;
    if info.algorithm.oid != EC_PUBLIC_KEY {
        anyhow::bail!(
            "the signer's key is not an elliptic-curve key (algorithm {}); OMS signatures use P-256, P-384 or P-521",
            info.algorithm.oid
        );
    }
    let curve = info
        .algorithm
        .parameters_oid()
        .context("the signer's key names no curve")?;
    match curve {
        P256 => Ok(SigningScheme::EcdsaP256Sha256),
        P384 => Ok(SigningScheme::EcdsaP384Sha384),
        P521 => anyhow::bail!(
            "the signer's key is on P-521, which skillpkg cannot verify yet (P-256 and P-384 only)"
        ),
        other => anyhow::bail!(
            "the signer's key is on curve {other}; OMS signatures use P-256, P-384 or P-521"
        ),
    }
}

/// The envelope's signature over DSSE's PAE of the payload, by `key` (a DER
/// SubjectPublicKeyInfo).
fn verify_dsse(key: &[u8], payload: &[u8], signature: &[u8]) -> anyhow::Result<()> {
    let scheme = scheme_of(key)?;
    sigstore_verify::crypto::verify_signature(
        &DerPublicKey::new(key.to_vec()),
        &sigstore_verify::types::pae(PAYLOAD_TYPE, payload),
        &SignatureBytes::new(signature.to_vec()),
        scheme,
    )
    .map_err(|e| anyhow::anyhow!("the signature over the statement does not verify ({e})"))
}

/// The in-toto statement; other fields are let be, as the reference does.
#[derive(Debug, Deserialize)]
struct Statement {
    #[serde(rename = "_type")]
    kind: String,
    #[serde(rename = "predicateType")]
    predicate_type: String,
    subject: Vec<StatementSubject>,
    predicate: serde_json::Value,
}

/// The statement's one subject: the folder's name and the digest over
/// every file's digest.
#[derive(Debug, Deserialize)]
struct StatementSubject {
    /// Informative only, as in the reference.
    #[serde(rename = "name")]
    _name: IgnoredAny,
    digest: SubjectDigest,
}

/// The subject's digest.
#[derive(Debug, Deserialize)]
struct SubjectDigest {
    sha256: String,
}

/// model_signing's predicate.
#[derive(Debug, Deserialize)]
struct Predicate {
    serialization: Serialization,
    resources: Vec<Resource>,
}

/// How the folder was read into the statement.
#[derive(Debug, Deserialize)]
struct Serialization {
    method: String,
    hash_type: String,
    /// Required, but never used: symbolic links fail whatever it says, as
    /// in the reference.
    #[serde(rename = "allow_symlinks")]
    _allow_symlinks: IgnoredAny,
    #[serde(default)]
    ignore_paths: Vec<String>,
}

/// One signed file.
#[derive(Debug, Deserialize)]
struct Resource {
    name: String,
    algorithm: String,
    digest: String,
}

/// Reads the signed statement's checks and what it lists.
fn read_statement(payload: &[u8]) -> anyhow::Result<folder::Signed> {
    let statement: Statement =
        serde_json::from_slice(payload).context("the signed statement cannot be read")?;
    if statement.kind != STATEMENT_TYPE {
        anyhow::bail!(
            "the statement's _type is {:?}, not {STATEMENT_TYPE:?}",
            statement.kind
        );
    }
    if statement.predicate_type != PREDICATE_TYPE {
        anyhow::bail!(
            "the statement's predicateType is {:?}, not {PREDICATE_TYPE:?}",
            statement.predicate_type
        );
    }
    let [subject] = statement.subject.as_slice() else {
        anyhow::bail!(
            "the statement has {} subjects, not one",
            statement.subject.len()
        );
    };
    let predicate: Predicate = serde_json::from_value(statement.predicate)
        .context("the statement's predicate cannot be read")?;
    read_predicate(&predicate, &subject.digest.sha256)
}

/// The predicate's files, checked against the subject's digest.
fn read_predicate(predicate: &Predicate, subject_digest: &str) -> anyhow::Result<folder::Signed> {
    let serialization = &predicate.serialization;
    if serialization.method != "files" {
        anyhow::bail!(
            "the signature was made with method {:?}; skillpkg verifies only \"files\" (model_signing 1.1.1 cannot verify \"shards\" either)",
            serialization.method
        );
    }
    if serialization.hash_type != "sha256" {
        anyhow::bail!(
            "the signature hashes files with {:?}; skillpkg verifies only sha256",
            serialization.hash_type
        );
    }
    let mut files = Vec::with_capacity(predicate.resources.len());
    for resource in &predicate.resources {
        if resource.algorithm != "sha256" {
            anyhow::bail!(
                "the signature hashes {} with {:?}; skillpkg verifies only sha256",
                resource.name,
                resource.algorithm
            );
        }
        let digest: [u8; 32] = crate::store::hash::unhex(&resource.digest)
            .and_then(|bytes| bytes.try_into().ok())
            .with_context(|| {
                format!(
                    "the signature's digest of {} is not a sha256 ({:?})",
                    resource.name, resource.digest
                )
            })?;
        files.push((resource.name.clone(), digest));
    }
    let recomputed = resources_digest(files.iter().map(|(_, digest)| digest));
    if recomputed != subject_digest {
        anyhow::bail!(
            "the statement is inconsistent: its subject digest is {subject_digest}, but the files it lists hash to {recomputed}"
        );
    }
    folder::Signed::new(files, &serialization.ignore_paths)
}

/// The statement subject's digest: sha256 over the raw digests of the
/// resources, in the order the statement lists them (names are not
/// hashed), as lowercase hex.
fn resources_digest<'a>(digests: impl Iterator<Item = &'a [u8; 32]>) -> String {
    use sha2::Digest as _;
    let mut hasher = sha2::Sha256::new();
    for digest in digests {
        hasher.update(digest);
    }
    crate::store::hash::hex(&hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn predicate(method: &str, hash: &str, resources: &[(&str, &str, [u8; 32])]) -> Predicate {
        Predicate {
            serialization: Serialization {
                method: method.into(),
                hash_type: hash.into(),
                _allow_symlinks: IgnoredAny,
                ignore_paths: Vec::new(),
            },
            resources: resources
                .iter()
                .map(|(name, algorithm, digest)| Resource {
                    name: (*name).into(),
                    algorithm: (*algorithm).into(),
                    digest: crate::store::hash::hex(digest),
                })
                .collect(),
        }
    }

    #[test]
    fn the_subject_digest_hashes_the_raw_digests_in_payload_order() {
        let (a, b) = ([1u8; 32], [2u8; 32]);
        let mut both = a.to_vec();
        both.extend_from_slice(&b);
        assert_eq!(
            resources_digest([&a, &b].into_iter()),
            crate::store::hash::sha256_hex(&both)
        );
        // Order matters: the digest is over the payload's order, not sorted.
        assert_ne!(
            resources_digest([&a, &b].into_iter()),
            resources_digest([&b, &a].into_iter())
        );
        // No files: sha256 of nothing.
        assert_eq!(
            resources_digest(std::iter::empty()),
            crate::store::hash::sha256_hex(b"")
        );
        let listed = predicate("files", "sha256", &[("b", "sha256", b), ("a", "sha256", a)]);
        let in_order = resources_digest([&b, &a].into_iter());
        assert!(read_predicate(&listed, &in_order).is_ok());
        let sorted = resources_digest([&a, &b].into_iter());
        let refused = read_predicate(&listed, &sorted).unwrap_err();
        assert!(format!("{refused}").contains("inconsistent"), "{refused}");
    }

    #[test]
    fn other_methods_and_hashes_are_refused_naming_them() {
        let files = [("SKILL.md", "sha256", [7u8; 32])];
        let digest = resources_digest([&[7u8; 32]].into_iter());
        let shards = read_predicate(&predicate("shards", "sha256", &files), &digest).unwrap_err();
        assert!(
            format!("{shards}").contains("method \"shards\""),
            "{shards}"
        );
        let blake = read_predicate(&predicate("files", "blake2", &files), &digest).unwrap_err();
        assert!(format!("{blake}").contains("\"blake2\""), "{blake}");
        let per_file = [("SKILL.md", "blake3", [7u8; 32])];
        let refused =
            read_predicate(&predicate("files", "sha256", &per_file), &digest).unwrap_err();
        assert!(
            format!("{refused}").contains("hashes SKILL.md with \"blake3\""),
            "{refused}"
        );
    }

    #[test]
    fn statements_of_another_type_or_with_two_subjects_are_refused() {
        let statement = |kind: &str, predicate_type: &str, subjects: usize| {
            serde_json::json!({
                "_type": kind,
                "predicateType": predicate_type,
                "subject": vec![serde_json::json!({"name": "x", "digest": {"sha256": "00"}}); subjects],
                "predicate": {},
            })
            .to_string()
        };
        let refusal = |text: String| format!("{}", read_statement(text.as_bytes()).unwrap_err());
        assert!(
            refusal(statement(
                "https://in-toto.io/Statement/v0.1",
                PREDICATE_TYPE,
                1
            ))
            .contains("_type")
        );
        assert!(
            refusal(statement(
                STATEMENT_TYPE,
                "https://model_signing/Digests/v0.1",
                1
            ))
            .contains("predicateType")
        );
        assert!(refusal(statement(STATEMENT_TYPE, PREDICATE_TYPE, 2)).contains("2 subjects"));
        assert!(refusal(statement(STATEMENT_TYPE, PREDICATE_TYPE, 0)).contains("0 subjects"));
    }

    #[test]
    fn the_key_hint_is_the_sha256_of_the_keys_pem_as_python_writes_it() {
        let der = vec![0x30u8; 91];
        let pem = canonical_pem(&der);
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        assert!(pem.lines().nth(1).unwrap().len() == 64);
        assert!(pem.ends_with("\n-----END PUBLIC KEY-----\n"));
        let hint = crate::store::hash::sha256_hex(pem.as_bytes());
        assert!(check_key_hint(Some(&hint), &der).is_ok());
        assert!(check_key_hint(None, &der).is_ok());
        assert!(check_key_hint(Some(""), &der).is_ok());
        assert!(check_key_hint(Some(&"0".repeat(64)), &der).is_err());
    }

    #[test]
    fn only_v0_3_bundles_are_read_and_unknown_fields_are_refused() {
        let bundle = |media_type: &str, extra: &str| {
            format!(
                r#"{{"mediaType":"{media_type}","verificationMaterial":{{"publicKey":{{"hint":"ab"}},"tlogEntries":[]{extra}}},"dsseEnvelope":{{"payload":"","payloadType":"{PAYLOAD_TYPE}","signatures":[]}}}}"#
            )
        };
        assert!(Bundle::parse(&bundle(MEDIA_TYPE, "")).is_ok());
        let old = Bundle::parse(&bundle(
            "application/vnd.dev.sigstore.bundle+json;version=0.2",
            "",
        ))
        .unwrap_err();
        assert!(format!("{old}").contains("media type"), "{old}");
        let unknown = Bundle::parse(&bundle(MEDIA_TYPE, r#","surprise":1"#)).unwrap_err();
        assert!(format!("{unknown:#}").contains("surprise"), "{unknown:#}");
    }
}
