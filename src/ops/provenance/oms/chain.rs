//! The certificate flow's chain, checked as model_signing 1.1.1 has
//! OpenSSL check it: from the bundle's leaf, through its other
//! certificates (untrusted, in any order), to one of the given self-signed
//! roots, every certificate valid at the leaf's notBefore (never "now":
//! an expired leaf still verifies). `rustls-webpki` builds the path and
//! checks its signatures, validity and basicConstraints; what it leaves
//! to its caller is checked here: keyCertSign on CAs that carry keyUsage,
//! the root's own validity and path length, and the leaf's usage
//! (keyUsage digitalSignature, else extendedKeyUsage codeSigning).

use crate::manifest::lock::{LockedSigner, SignerTable};
use anyhow::Context as _;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, TrustAnchor, UnixTime};
use std::cell::RefCell;
use x509_cert::Certificate;
use x509_cert::der::{Decode as _, Encode as _};
use x509_cert::ext::pkix::{BasicConstraints, ExtendedKeyUsage, KeyUsage};

/// The extendedKeyUsage id-kp-codeSigning.
const CODE_SIGNING: x509_cert::der::oid::ObjectIdentifier =
    x509_cert::der::oid::ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.3");

/// A leaf that chains to a given root and may sign.
#[derive(Debug)]
pub(super) struct Leaf {
    /// Its subject and the root it chains to.
    pub(super) signer: LockedSigner,
    /// Its public key, a DER SubjectPublicKeyInfo.
    pub(super) key: Vec<u8>,
}

/// A root certificate given, parsed.
struct Root {
    der: CertificateDer<'static>,
    certificate: Certificate,
}

/// Checks that the bundle's `chain` (DER certificates, the leaf first)
/// leads to one of the roots in `roots_pem`, and that its leaf may sign.
pub(super) fn verify(chain: &[Vec<u8>], roots_pem: &str) -> anyhow::Result<Leaf> {
    let (roots, given_intermediates) = read_roots(roots_pem)?;
    let (leaf_der, untrusted) = chain
        .split_first()
        .context("the bundle's certificate chain is empty")?;
    let leaf = parse(leaf_der).context("the bundle's leaf certificate cannot be read")?;
    let not_before = leaf.tbs_certificate.validity.not_before.to_unix_duration();
    let time = UnixTime::since_unix_epoch(not_before);
    let anchors = roots
        .iter()
        .map(|root| {
            webpki::anchor_from_trusted_cert(&root.der)
                .map(|anchor| anchor.to_owned())
                .context("a root certificate cannot be used as a root")
        })
        .collect::<anyhow::Result<Vec<TrustAnchor<'static>>>>()?;
    let intermediates: Vec<CertificateDer<'_>> = untrusted
        .iter()
        .map(|der| CertificateDer::from(der.as_slice()))
        .chain(given_intermediates.iter().cloned())
        .collect();
    let leaf_der = CertificateDer::from(leaf_der.as_slice());
    let end_entity = webpki::EndEntityCert::try_from(&leaf_der)
        .map_err(|e| anyhow::anyhow!("the bundle's leaf certificate cannot be read ({e})"))?;

    // What webpki leaves to its caller, checked on each path it finds: the
    // first reason a path failed here is the one reported.
    let refusal = RefCell::new(None::<String>);
    let check_path = |path: &webpki::VerifiedPath<'_>| {
        let root = anchors
            .iter()
            .position(|anchor| std::ptr::eq(anchor, path.anchor()))
            .map(|at| &roots[at]);
        let intermediates = path.intermediate_certificates().count();
        let checked = root
            .context("the path ends at no given root")
            .and_then(|root| check_root(&root.certificate, not_before, intermediates))
            .and_then(|()| {
                path.intermediate_certificates()
                    .try_for_each(|cert| check_ca(&parse(cert.der().as_ref())?))
            });
        checked.map_err(|e| {
            refusal.borrow_mut().get_or_insert(format!("{e:#}"));
            webpki::Error::UnknownIssuer
        })
    };
    let path = end_entity
        .verify_for_usage(
            sigstore_verify::crypto::WEBPKI_VERIFICATION_ALGS,
            &anchors,
            &intermediates,
            time,
            AnyUsage,
            None,
            Some(&check_path),
        )
        .map_err(|e| {
            let reason = refusal
                .take()
                .unwrap_or_else(|| explain(&e, untrusted, &roots));
            anyhow::anyhow!("the certificate chain does not lead to the given root ({reason})")
        })?;
    let root = anchors
        .iter()
        .position(|anchor| std::ptr::eq(anchor, path.anchor()))
        .map(|at| &roots[at])
        .context("the chain ends at no given root")?;
    check_leaf_usage(&leaf)?;
    let key = leaf
        .tbs_certificate
        .subject_public_key_info
        .to_der()
        .context("the leaf's public key cannot be read")?;
    Ok(Leaf {
        signer: LockedSigner::Other(SignerTable::Oms {
            subject: leaf.tbs_certificate.subject.to_string(),
            chain: super::super::sha256(root.der.as_ref()),
        }),
        key,
    })
}

/// webpki's reason a path failed, in words.
fn explain(error: &webpki::Error, untrusted: &[Vec<u8>], roots: &[Root]) -> String {
    use webpki::Error as E;
    match error {
        E::UnknownIssuer => {
            // Name the root the bundle's chain ends at instead, when it
            // carries one (as NVIDIA's bundles do).
            let own_root = untrusted
                .iter()
                .filter(|der| roots.iter().all(|root| root.der.as_ref() != der.as_slice()))
                .filter_map(|der| parse(der).ok())
                .find(|cert| cert.tbs_certificate.subject == cert.tbs_certificate.issuer);
            match own_root {
                Some(own) => format!(
                    "the bundle's chain ends at the root {}, which is not among the roots given",
                    name(&own)
                ),
                None => "no root given issued the chain's certificates".to_owned(),
            }
        }
        E::EndEntityUsedAsCa => "a certificate that is not a CA issued another".to_owned(),
        E::CaUsedAsEndEntity => "the signing certificate is a CA certificate".to_owned(),
        E::CertExpired { .. } | E::CertNotValidYet { .. } => {
            format!("a certificate is not valid when the leaf was issued ({error})")
        }
        E::PathLenConstraintViolated => "a CA's path length constraint is exceeded".to_owned(),
        E::InvalidSignatureForPublicKey => {
            "a certificate's signature does not verify with its issuer's key".to_owned()
        }
        other => format!("{other}"),
    }
}

/// The roots given (self-signed certificates), and the other certificates
/// given beside them, which help build a path but cannot end one: trusting
/// only an intermediate does not make it a root.
fn read_roots(pem: &str) -> anyhow::Result<(Vec<Root>, Vec<CertificateDer<'static>>)> {
    let mut roots = Vec::new();
    let mut intermediates = Vec::new();
    for der in CertificateDer::pem_slice_iter(pem.as_bytes()) {
        let der = der.map_err(|e| anyhow::anyhow!("the root certificates cannot be read ({e})"))?;
        let certificate =
            parse(der.as_ref()).context("a certificate in the root file cannot be read")?;
        if certificate.tbs_certificate.subject == certificate.tbs_certificate.issuer {
            roots.push(Root { der, certificate });
        } else {
            intermediates.push(der);
        }
    }
    if roots.is_empty() {
        anyhow::bail!(
            "the root file holds no self-signed root certificate ({} other certificate(s); an intermediate cannot stand for its root)",
            intermediates.len()
        );
    }
    Ok((roots, intermediates))
}

/// A DER certificate, parsed.
fn parse(der: &[u8]) -> anyhow::Result<Certificate> {
    Certificate::from_der(der).map_err(|e| anyhow::anyhow!("not an X.509 certificate ({e})"))
}

/// The certificate's subject, for messages.
fn name(certificate: &Certificate) -> String {
    certificate.tbs_certificate.subject.to_string()
}

/// One extension, `None` when absent.
fn extension<'a, T>(certificate: &'a Certificate) -> anyhow::Result<Option<T>>
where
    T: x509_cert::der::Decode<'a> + x509_cert::der::oid::AssociatedOid,
{
    certificate
        .tbs_certificate
        .get::<T>()
        .map(|found| found.map(|(_critical, value)| value))
        .map_err(|e| {
            anyhow::anyhow!(
                "the extension {} of {} cannot be read ({e})",
                T::OID,
                name(certificate)
            )
        })
}

/// A CA above the leaf: keyCertSign when it carries keyUsage.
fn check_ca(certificate: &Certificate) -> anyhow::Result<()> {
    if let Some(usage) = extension::<KeyUsage>(certificate)?
        && !usage.key_cert_sign()
    {
        anyhow::bail!(
            "{} is a CA whose keyUsage lacks keyCertSign",
            name(certificate)
        );
    }
    Ok(())
}

/// The root the path ends at, which webpki takes on trust: valid at the
/// leaf's notBefore, a CA (keyCertSign, and CA:TRUE when it says), whose
/// path length allows the `intermediates` below it.
fn check_root(
    root: &Certificate,
    at: std::time::Duration,
    intermediates: usize,
) -> anyhow::Result<()> {
    let validity = &root.tbs_certificate.validity;
    if at < validity.not_before.to_unix_duration() || at > validity.not_after.to_unix_duration() {
        anyhow::bail!(
            "the root {} is not valid when the leaf was issued",
            name(root)
        );
    }
    check_ca(root)?;
    if let Some(constraints) = extension::<BasicConstraints>(root)? {
        if !constraints.ca {
            anyhow::bail!("the root {} is not a CA (CA:FALSE)", name(root));
        }
        if let Some(limit) = constraints.path_len_constraint
            && intermediates > usize::from(limit)
        {
            anyhow::bail!(
                "the root {} allows {limit} intermediate(s) below it, and the chain has {intermediates}",
                name(root)
            );
        }
    }
    Ok(())
}

/// The leaf may sign: keyUsage digitalSignature, else extendedKeyUsage
/// codeSigning (as model_signing checks it; webpki's usage check would
/// differ).
fn check_leaf_usage(leaf: &Certificate) -> anyhow::Result<()> {
    if extension::<KeyUsage>(leaf)?.is_some_and(|usage| usage.digital_signature()) {
        return Ok(());
    }
    if extension::<ExtendedKeyUsage>(leaf)?.is_some_and(|usage| usage.0.contains(&CODE_SIGNING)) {
        return Ok(());
    }
    anyhow::bail!(
        "the signing certificate {} may not sign: it has neither keyUsage digitalSignature nor extendedKeyUsage codeSigning",
        name(leaf)
    )
}

/// No extendedKeyUsage constraint on the path: OpenSSL, as model_signing
/// runs it, sets no purpose; the leaf's usage is checked by hand.
struct AnyUsage;

impl webpki::ExtendedKeyUsageValidator for AnyUsage {
    fn validate(&self, iter: webpki::KeyPurposeIdIter<'_, '_>) -> Result<(), webpki::Error> {
        for purpose in iter {
            purpose?;
        }
        Ok(())
    }
}
