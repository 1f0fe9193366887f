//! gitsign commit signatures: a detached CMS SignedData (PEM-armoured as
//! `SIGNED MESSAGE` in the commit's `gpgsig` header) made by a short-lived
//! Fulcio certificate, with the Rekor entry of that signature embedded as
//! an unsigned attribute (gitsign's default, offline-verifiable mode).
//!
//! Every byte of it is the committer's to write. So the CMS is checked
//! here (one signer, its certificate in the signature, `messageDigest` the
//! SHA-256 of the commit without its signature, ECDSA with SHA-256), and
//! everything else — the signature over the signed attributes with the
//! certificate's key, the certificate's chain to
//! Fulcio, the log's promise and inclusion proof, the certificate's
//! validity at the time the log saw the signature, the identity and its
//! issuer — by the Sigstore bundle verifier, over a bundle rebuilt from
//! the signature: the leaf certificate, the embedded entry with the
//! `hashedrekord` body recomputed from the signature (the log signed that
//! body, so a body that is not the one logged fails its promise), and the
//! signature over the signed attributes. A signature without an embedded
//! entry (gitsign's online mode) carries only a signing time its signer
//! chose, and is refused.

mod rekor_entry;

use anyhow::{Context as _, bail, ensure};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cms::cert::CertificateChoices;
use cms::content_info::ContentInfo;
use cms::signed_data::{SignedData, SignerIdentifier};
use x509_cert::Certificate;
use x509_cert::der::asn1::OctetString;
use x509_cert::der::oid::ObjectIdentifier as Oid;
use x509_cert::der::{Decode as _, Encode as _};

use super::sigstore::{Policy, Root, Sigstore};
use super::{Proof, Subject, Verifier};
use crate::hint::Hinted;

const SIGNED_DATA: Oid = Oid::new_unwrap("1.2.840.113549.1.7.2");
const DATA: Oid = Oid::new_unwrap("1.2.840.113549.1.7.1");
const CONTENT_TYPE: Oid = Oid::new_unwrap("1.2.840.113549.1.9.3");
const MESSAGE_DIGEST: Oid = Oid::new_unwrap("1.2.840.113549.1.9.4");
const SHA256: Oid = Oid::new_unwrap("2.16.840.1.101.3.4.2.1");
const ECDSA_WITH_SHA256: Oid = Oid::new_unwrap("1.2.840.10045.4.3.2");
const REKOR_ENTRY: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.3.1");
const FULCIO_ISSUER: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.8");
const FULCIO_ISSUER_V1: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.1");
const SUBJECT_ALT_NAME: Oid = Oid::new_unwrap("2.5.29.17");

/// A gitsign signature and who may have made it.
#[derive(Debug, Clone)]
pub(crate) struct Gitsign {
    /// The `gpgsig` header's text (`-----BEGIN SIGNED MESSAGE-----…`).
    pub signature: String,
    /// Who may have signed: an identity and its issuer (or a pattern).
    pub policy: Policy,
    /// What the certificate and the log entry must chain to.
    pub root: Root,
}

/// Who a signature's certificate names, before anything is checked: what
/// picks the policy to check it against, and what refusals name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claimed {
    /// The certificate's SAN: an email or a URI.
    pub identity: String,
    /// Its OIDC issuer extension.
    pub issuer: String,
}

impl std::fmt::Display for Claimed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (issuer {})", self.identity, self.issuer)
    }
}

/// The parts of a gitsign signature the checks need.
struct Parsed {
    /// The signer's certificate.
    leaf: Certificate,
    /// The DER SET of the signed attributes: what the signature signs.
    signed_attributes: Vec<u8>,
    /// The `messageDigest` attribute.
    message_digest: Vec<u8>,
    /// The ECDSA signature (ASN.1 DER).
    signature: Vec<u8>,
    /// The embedded Rekor entry, when there is one.
    entry: Option<Vec<u8>>,
}

impl Verifier for Gitsign {
    fn family(&self) -> &'static str {
        "gitsign"
    }

    fn verify(&self, subject: Subject<'_>) -> anyhow::Result<Proof> {
        let Subject::Bytes(commit) = subject else {
            bail!("a gitsign signature signs a commit's bytes");
        };
        let parsed = parse(&self.signature)?;
        ensure!(
            parsed.message_digest == sha256(commit),
            "the signature is over other content than this commit: the commit was changed after it was signed"
        );
        let Some(entry) = &parsed.entry else {
            bail!(
                Hinted::new(
                    "the signature carries no Rekor entry, so nothing but a time its signer chose says when it was made"
                )
                .hint(
                    "ask the signer to sign with the entry embedded (gitsign's default; `gitsign config rekorMode offline`)"
                )
            );
        };
        let bundle = bundle(&parsed, entry)?;
        let verified = Sigstore {
            bundle,
            policy: self.policy.clone(),
            root: self.root.clone(),
        }
        .verify(Subject::Bytes(&parsed.signed_attributes))?;
        Ok(Proof {
            signer: verified.signer,
            signature: super::sha256(self.signature.as_bytes()),
            statement: None,
            vouched: None,
            root: None,
        })
    }
}

/// Who the certificate of the signature `armored` names (unchecked).
pub(crate) fn claimed(armored: &str) -> anyhow::Result<Claimed> {
    let leaf = parse(armored)?.leaf;
    let extension = |oid: Oid| {
        leaf.tbs_certificate
            .extensions
            .iter()
            .flatten()
            .find(|e| e.extn_id == oid)
            .map(|e| e.extn_value.as_bytes())
    };
    let issuer = match (extension(FULCIO_ISSUER), extension(FULCIO_ISSUER_V1)) {
        (Some(der), _) => x509_cert::der::asn1::Utf8StringRef::from_der(der)
            .map(|s| s.as_str().to_string())
            .context("the certificate's issuer extension is not a UTF-8 string")?,
        (None, Some(raw)) => String::from_utf8(raw.to_vec())
            .context("the certificate's issuer extension is not UTF-8")?,
        (None, None) => {
            bail!("the certificate names no OIDC issuer: it is not a Fulcio certificate")
        }
    };
    let names = extension(SUBJECT_ALT_NAME)
        .context("the certificate names no identity (subject alternative name)")?;
    let names = x509_cert::ext::pkix::SubjectAltName::from_der(names)
        .context("the certificate's subject alternative name cannot be read")?;
    let identity = names
        .0
        .iter()
        .find_map(|name| match name {
            x509_cert::ext::pkix::name::GeneralName::Rfc822Name(email) => {
                Some(email.as_str().to_string())
            }
            x509_cert::ext::pkix::name::GeneralName::UniformResourceIdentifier(uri) => {
                Some(uri.as_str().to_string())
            }
            _ => None,
        })
        .context("the certificate names no email or URI")?;
    Ok(Claimed { identity, issuer })
}

/// Reads the armoured CMS `armored` down to what is checked, refusing
/// anything gitsign does not make.
fn parse(armored: &str) -> anyhow::Result<Parsed> {
    let der = dearmor(armored)?;
    let info = ContentInfo::from_der(&der).context("the signature is not CMS")?;
    ensure!(
        info.content_type == SIGNED_DATA,
        "the signature is not a CMS SignedData"
    );
    let signed: SignedData = info
        .content
        .decode_as()
        .context("the SignedData cannot be read")?;
    ensure!(
        signed.encap_content_info.econtent_type == DATA
            && signed.encap_content_info.econtent.is_none(),
        "the signature is not detached over data, as a commit signature is"
    );
    let [signer] = signed.signer_infos.0.as_slice() else {
        bail!(
            "the signature has {} signers, and a commit signature has one",
            signed.signer_infos.0.len()
        );
    };
    let SignerIdentifier::IssuerAndSerialNumber(id) = &signer.sid else {
        bail!("the signer is named by a key identifier, and gitsign names it by its certificate");
    };
    let leaf = signed
        .certificates
        .iter()
        .flat_map(|set| set.0.iter())
        .find_map(|choice| match choice {
            CertificateChoices::Certificate(cert)
                if cert.tbs_certificate.issuer == id.issuer
                    && cert.tbs_certificate.serial_number == id.serial_number =>
            {
                Some(cert.clone())
            }
            _ => None,
        })
        .context("the signer's certificate is not in the signature")?;
    ensure!(
        signer.digest_alg.oid == SHA256 && signer.signature_algorithm.oid == ECDSA_WITH_SHA256,
        "the signature is not ECDSA with SHA-256, as gitsign makes"
    );
    let attributes = signer
        .signed_attrs
        .as_ref()
        .context("the signature has no signed attributes")?;
    let single = |oid: Oid, name: &str| {
        let mut found = attributes.iter().filter(|a| a.oid == oid);
        match (found.next(), found.next()) {
            (Some(attribute), None) if attribute.values.len() == 1 => {
                Ok(attribute.values.get(0).cloned())
            }
            _ => Err(anyhow::anyhow!(
                "the signature's signed attributes have no single {name}"
            )),
        }
    };
    let content_type = single(CONTENT_TYPE, "content type")?
        .context("no content type")?
        .decode_as::<Oid>()
        .context("the content type cannot be read")?;
    ensure!(content_type == DATA, "the signed content type is not data");
    let message_digest = single(MESSAGE_DIGEST, "message digest")?
        .context("no message digest")?
        .decode_as::<OctetString>()
        .context("the message digest cannot be read")?
        .into_bytes();
    let entry = match signer
        .unsigned_attrs
        .iter()
        .flat_map(|set| set.iter())
        .find(|a| a.oid == REKOR_ENTRY)
    {
        Some(attribute) => Some(
            attribute
                .values
                .get(0)
                .context("the Rekor entry attribute is empty")?
                .decode_as::<OctetString>()
                .context("the Rekor entry attribute cannot be read")?
                .into_bytes(),
        ),
        None => None,
    };
    Ok(Parsed {
        leaf,
        signed_attributes: attributes
            .to_der()
            .context("the signed attributes cannot be encoded")?,
        message_digest,
        signature: signer.signature.as_bytes().to_vec(),
        entry,
    })
}

/// The DER inside `-----BEGIN SIGNED MESSAGE-----` armour.
fn dearmor(armored: &str) -> anyhow::Result<Vec<u8>> {
    let mut lines = armored.lines().map(str::trim).filter(|l| !l.is_empty());
    ensure!(
        lines.next() == Some("-----BEGIN SIGNED MESSAGE-----"),
        "the signature is not a PEM `SIGNED MESSAGE`"
    );
    let mut body = String::new();
    for line in lines {
        if line == "-----END SIGNED MESSAGE-----" {
            return BASE64
                .decode(body)
                .context("the signature's base64 cannot be read");
        }
        body.push_str(line);
    }
    bail!("the signature's PEM has no end line")
}

/// The Sigstore bundle (v0.3 JSON) of the signature `parsed`, whose
/// embedded entry is `entry`.
fn bundle(parsed: &Parsed, entry: &[u8]) -> anyhow::Result<String> {
    let leaf = parsed
        .leaf
        .to_der()
        .context("the certificate cannot be encoded")?;
    let digest = sha256(&parsed.signed_attributes);
    // The body Rekor logged, as gitsign submits it: the digest of the
    // signed attributes, the signature, and the certificate as PEM.
    let body = serde_json::json!({
        "apiVersion": "0.0.1",
        "kind": "hashedrekord",
        "spec": {
            "data": { "hash": { "algorithm": "sha256", "value": crate::store::hash::hex(&digest) } },
            "signature": {
                "content": BASE64.encode(&parsed.signature),
                "publicKey": { "content": BASE64.encode(pem_certificate(&leaf)) },
            },
        },
    });
    let entry = rekor_entry::bundle_entry(entry, &body.to_string())
        .context("the embedded Rekor entry cannot be read")?;
    let bundle = serde_json::json!({
        "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {
            "certificate": { "rawBytes": BASE64.encode(&leaf) },
            "tlogEntries": [entry],
        },
        "messageSignature": {
            "messageDigest": { "algorithm": "SHA2_256", "digest": BASE64.encode(digest) },
            "signature": BASE64.encode(&parsed.signature),
        },
    });
    Ok(bundle.to_string())
}

/// `der` as PEM the way Go writes it (64-column lines), which is what
/// gitsign sends the log.
fn pem_certificate(der: &[u8]) -> String {
    let text = BASE64.encode(der);
    let mut pem = String::from("-----BEGIN CERTIFICATE-----\n");
    for line in text.as_bytes().chunks(64) {
        pem.push_str(&String::from_utf8_lossy(line));
        pem.push('\n');
    }
    pem.push_str("-----END CERTIFICATE-----\n");
    pem
}

fn sha256(bytes: &[u8]) -> Vec<u8> {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).to_vec()
}

#[cfg(test)]
mod tests;
