import Foundation
import NIOCore
import NIOSSL
import PostgresNIO

/// Where the database is and who connects, from a `postgres://` URL.
struct DatabaseAddress: Sendable {
    var host: String
    var port: Int
    /// The directory of a Unix socket, from `?host=/path`.
    var socketDirectory: String?
    var username: String
    var password: String?
    var database: String?
    /// `disable`, `prefer` or `require`.
    var tls: String

    init(_ url: String) throws(GatewayStoreError) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "")
        else {
            throw GatewayStoreError("the database URL must be postgres://user:password@host:port/database")
        }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        username = components.user ?? "postgres"
        password = components.password
        database = components.path.count > 1 ? String(components.path.dropFirst()) : nil
        port = components.port ?? 5432
        socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        host = components.host ?? ""
        guard !host.isEmpty || socketDirectory != nil else {
            throw GatewayStoreError("the database URL names no host: postgres://user:password@host:port/database")
        }
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = "disable"
        case "prefer", "allow": tls = "prefer"
        case "require", "verify-ca", "verify-full": tls = "require"
        case let mode: throw GatewayStoreError("the database URL's sslmode '\(mode)' is not disable, prefer or require")
        }
    }

    /// Host and port (or socket) and database, for messages: never the password.
    var location: String {
        "\(socketDirectory.map { "\($0)/.s.PGSQL." } ?? "\(host):")\(port)/\(database ?? username)"
    }

    /// The pool's configuration.
    var client: PostgresClient.Configuration {
        if let socketDirectory {
            return .init(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password,
                database: database)
        }
        let mode: PostgresClient.Configuration.TLS =
            switch tls {
            case "disable": .disable
            case "require": .require(.makeClientConfiguration())
            default: .prefer(.makeClientConfiguration())
            }
        return .init(host: host, port: port, username: username, password: password, database: database, tls: mode)
    }

    /// A single connection's configuration.
    func connection() throws(GatewayStoreError) -> PostgresConnection.Configuration {
        if let socketDirectory {
            return .init(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password,
                database: database)
        }
        let mode: PostgresConnection.Configuration.TLS
        do {
            switch tls {
            case "disable": mode = .disable
            case "require": mode = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            default: mode = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw GatewayStoreError("TLS for the database cannot be set up: \(error)")
        }
        return .init(host: host, port: port, username: username, password: password, database: database, tls: mode)
    }
}
