import Foundation
import NIOSSL

extension Gateway {
    /// The gateway's own TLS, where no proxy terminates it: a certificate chain and its private key, read from PEM
    /// files once; TLS 1.2 and 1.3 only (`dce-gateway --tls-cert --tls-key`).
    public struct TLS: Sendable {
        let configuration: TLSConfiguration

        /// Reads the certificate chain (the server's certificate first) and its private key.
        ///
        /// - Parameters:
        ///   - certificateChain: A PEM file of certificates.
        ///   - privateKey: A PEM file of the first certificate's private key.
        /// - Throws: ``GatewayTLSError`` naming the file that cannot be read or used, or a key that does not match.
        public init(certificateChain: String, privateKey: String) throws(GatewayTLSError) {
            let chain: [NIOSSLCertificate]
            do {
                chain = try NIOSSLCertificate.fromPEMFile(certificateChain)
            } catch {
                throw GatewayTLSError("\(certificateChain) is not a PEM certificate chain: \(error)")
            }
            guard !chain.isEmpty else {
                throw GatewayTLSError("\(certificateChain) holds no certificate")
            }
            let key: NIOSSLPrivateKey
            do {
                key = try NIOSSLPrivateKey(file: privateKey, format: .pem)
            } catch {
                throw GatewayTLSError("\(privateKey) is not a PEM private key: \(error)")
            }
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            // The context is built here once, so that a key that is not the certificate's is found at start, not at
            // the first handshake.
            do {
                _ = try NIOSSLContext(configuration: configuration)
            } catch {
                throw GatewayTLSError(
                    "\(privateKey) and \(certificateChain) do not make a TLS server (is the key the certificate's?): \(error)"
                )
            }
            self.configuration = configuration
        }
    }
}

/// Why the gateway's TLS files cannot be used.
public struct GatewayTLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public var message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
