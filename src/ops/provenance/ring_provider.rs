//! The cryptography `sigstore-verify` runs on: hashes and signature checks
//! on ring, with `p256`/`p384` for ECDSA over a digest computed beforehand.
//!
//! Hand-written because the crate's own provider is aws-lc-rs, a second
//! TLS-grade C library whose build the build-time budget dropped (rustls
//! already runs on ring here). Verification only: nothing here signs.
//! ring cannot check a signature over a prehashed digest, which Sigstore
//! message signatures always need, hence the two RustCrypto curves;
//! prehashed RSA, P-521 and ML-DSA are refused as unsupported.

use ring::{digest, signature as sig};
use sigstore_verify::crypto::{CryptoProvider, Error, HashContext, Result, SigningScheme};
use sigstore_verify::types::HashAlgorithm;

/// The provider, installed once by [`install`].
#[derive(Debug)]
struct RingProvider;

static RING_PROVIDER: RingProvider = RingProvider;

/// Makes ring the provider `sigstore-verify` uses; later calls do nothing.
pub(crate) fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Fails only when a provider is already set: nothing else sets one.
        let _ = sigstore_verify::crypto::install_default_provider(&RING_PROVIDER);
    });
}

struct Context(digest::Context);

impl HashContext for Context {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    fn finalize(self: Box<Self>) -> Vec<u8> {
        self.0.finish().as_ref().to_vec()
    }
}

/// ring's algorithm for a scheme, over the message itself.
fn algorithm(scheme: SigningScheme) -> Option<&'static dyn sig::VerificationAlgorithm> {
    Some(match scheme {
        SigningScheme::EcdsaP256Sha256 => &sig::ECDSA_P256_SHA256_ASN1,
        SigningScheme::EcdsaP256Sha384 => &sig::ECDSA_P256_SHA384_ASN1,
        SigningScheme::EcdsaP384Sha256 => &sig::ECDSA_P384_SHA256_ASN1,
        SigningScheme::EcdsaP384Sha384 => &sig::ECDSA_P384_SHA384_ASN1,
        SigningScheme::Ed25519 => &sig::ED25519,
        SigningScheme::RsaPssSha256 => &sig::RSA_PSS_2048_8192_SHA256,
        SigningScheme::RsaPssSha384 => &sig::RSA_PSS_2048_8192_SHA384,
        SigningScheme::RsaPssSha512 => &sig::RSA_PSS_2048_8192_SHA512,
        SigningScheme::RsaPkcs1Sha256 => &sig::RSA_PKCS1_2048_8192_SHA256,
        SigningScheme::RsaPkcs1Sha384 => &sig::RSA_PKCS1_2048_8192_SHA384,
        SigningScheme::RsaPkcs1Sha512 => &sig::RSA_PKCS1_2048_8192_SHA512,
        _ => return None,
    })
}

impl CryptoProvider for RingProvider {
    fn hash(&self, algorithm: HashAlgorithm) -> Result<Box<dyn HashContext>> {
        let digest = match algorithm {
            HashAlgorithm::Sha2256 => &digest::SHA256,
            HashAlgorithm::Sha2384 => &digest::SHA384,
            HashAlgorithm::Sha2512 => &digest::SHA512,
            #[allow(unreachable_patterns)]
            _ => return Err(Error::UnsupportedAlgorithm(format!("{algorithm}"))),
        };
        Ok(Box::new(Context(digest::Context::new(digest))))
    }

    fn verify_raw(
        &self,
        scheme: SigningScheme,
        public_key: &[u8],
        data: &[u8],
        signature: &[u8],
    ) -> Result<()> {
        let algorithm =
            algorithm(scheme).ok_or_else(|| Error::UnsupportedAlgorithm(scheme.name().into()))?;
        sig::UnparsedPublicKey::new(algorithm, public_key)
            .verify(data, signature)
            .map_err(|_| Error::Verification(format!("the {} signature is invalid", scheme.name())))
    }

    fn verify_prehashed(
        &self,
        scheme: SigningScheme,
        public_key: &[u8],
        digest: &[u8],
        signature: &[u8],
    ) -> Result<()> {
        use p256::ecdsa::signature::hazmat::PrehashVerifier;
        let invalid =
            |_| Error::Verification(format!("the {} signature is invalid", scheme.name()));
        match scheme {
            SigningScheme::EcdsaP256Sha256 | SigningScheme::EcdsaP256Sha384 => {
                let key =
                    p256::ecdsa::VerifyingKey::from_sec1_bytes(public_key).map_err(invalid)?;
                let signature = p256::ecdsa::Signature::from_der(signature).map_err(invalid)?;
                key.verify_prehash(digest, &signature).map_err(invalid)
            }
            SigningScheme::EcdsaP384Sha256 | SigningScheme::EcdsaP384Sha384 => {
                let key =
                    p384::ecdsa::VerifyingKey::from_sec1_bytes(public_key).map_err(invalid)?;
                let signature = p384::ecdsa::Signature::from_der(signature).map_err(invalid)?;
                key.verify_prehash(digest, &signature).map_err(invalid)
            }
            _ => Err(Error::UnsupportedAlgorithm(format!(
                "{} over a digest",
                scheme.name()
            ))),
        }
    }
}
