public import Foundation
import HummingbirdTLS
import ParleyCore

/// The certificate and key `parley serve` serves HTTPS and `wss://` with (`--tls-certificate`, `--tls-key`).
///
/// Oracle's Web SDK always calls `/tts/*` over `https://` and opens sockets with `wss://` when
/// `enableSecureConnection` is on (its default): a server that browsers reach directly needs TLS, its own or a
/// front's (`docs/deploy.md`).
public struct TLSFiles: Sendable, Hashable {
    /// The PEM file with the server's certificate, then any intermediate certificates.
    public var certificate: URL
    /// The PEM file with the certificate's private key (unencrypted).
    public var key: URL

    /// Creates the pair.
    public init(certificate: URL, key: URL) {
        self.certificate = certificate
        self.key = key
    }

    /// The server's TLS configuration, from the files.
    /// - Throws: `decode.invalidValue` naming the file that cannot be read as PEM.
    func serverConfiguration() throws(ParleyError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate.path)
        } catch {
            throw ParleyError(
                .invalidValue, "\(certificate.path) is not a readable PEM certificate: \(error)", underlying: error)
        }
        guard !chain.isEmpty else {
            throw ParleyError(.invalidValue, "\(certificate.path) holds no PEM certificate")
        }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key.path, format: .pem)
        } catch {
            throw ParleyError(
                .invalidValue, "\(key.path) is not a readable PEM private key: \(error)", underlying: error)
        }
        return TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }
}
