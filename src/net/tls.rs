//! TLS for the HTTP client, with the platform's root certificates loaded
//! on the first `https` handshake rather than when the client is built.
//!
//! Loading them (`/etc/ssl/certs` on Linux) costs milliseconds on every
//! run that builds a client, which is every install from an HTTP index,
//! even a warm one that asks one conditional question of an `http://`
//! server, or none at all. The verification itself is the platform
//! verifier's (`rustls-platform-verifier`), as reqwest's own set-up uses:
//! the same roots (honouring `SSL_CERT_FILE` and `SSL_CERT_DIR`), the same
//! checks, only later.

use std::sync::{Arc, OnceLock};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

/// The TLS set-up for reqwest: TLS 1.2 and 1.3 with ring (not reqwest's
/// own provider), the lazy platform verifier, and ALPN for HTTP/2 and 1.1.
pub(super) fn client_config() -> anyhow::Result<rustls::ClientConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(LazyPlatformVerifier {
            provider,
            platform: OnceLock::new(),
        }))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// The platform verifier, made on first use.
#[derive(Debug)]
struct LazyPlatformVerifier {
    provider: Arc<CryptoProvider>,
    /// The verifier, or why it could not be made (no readable roots).
    platform: OnceLock<Result<rustls_platform_verifier::Verifier, String>>,
}

impl LazyPlatformVerifier {
    fn platform(&self) -> Result<&rustls_platform_verifier::Verifier, rustls::Error> {
        self.platform
            .get_or_init(|| {
                rustls_platform_verifier::Verifier::new(self.provider.clone())
                    .map_err(|e| format!("could not load the system's root certificates: {e}"))
            })
            .as_ref()
            .map_err(|e| rustls::Error::General(e.clone()))
    }
}

impl ServerCertVerifier for LazyPlatformVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.platform()?.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.platform()?.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.platform()?.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        // What the platform verifier answers, without loading roots: it
        // offers its provider's algorithms.
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
