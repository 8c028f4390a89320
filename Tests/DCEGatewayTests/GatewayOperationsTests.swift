import DCEEngine
import DCEEnvelope
import DCETestSupport
import Foundation
import Hummingbird
import Testing

@testable import DCEGateway

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an integrator and an operator get besides the requests: the OpenAPI document (every route the router has,
/// every answer the gateway gives, the envelopes of the catalogue served), liveness, readiness, and a SIGTERM that
/// drains before it stops.
@Suite(.serialized)
struct GatewayOperationsTests {
    let keys = Gateway.Keys.generate()
    let validator: Validator

    init() throws {
        validator = try Validator(source: .bundled)
    }

    /// The document as a JSON object.
    static func document(_ gateway: Gateway) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(gateway.openAPIDocument())) as? [String: Any])
    }

    static func paths(_ document: [String: Any]) throws -> [String: [String: Any]] {
        try #require(document["paths"] as? [String: [String: Any]])
    }

    static func components(_ document: [String: Any]) throws -> [String: Any] {
        try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
    }

    /// The documented answers of an operation, by status.
    static func responses(_ document: [String: Any], _ method: String, _ path: String) throws -> [String: [String: Any]]
    {
        let operation = try #require(try paths(document)[path]?[method] as? [String: Any], "\(method) \(path)")
        return try #require(operation["responses"] as? [String: [String: Any]])
    }

    /// Every route Hummingbird registers is a path and method of the document, and every one of those a route: the
    /// two cannot drift.
    @Test(arguments: [false, true])
    func theDocumentHasEveryRouteTheRouterHasAndNoOther(authenticated: Bool) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let authentication: Authentication = authenticated ? .apiKeys(APIKeys(directory: folder)) : .none
        let gateway = try Gateway(keys: keys, version: "2026.11.1", authentication: authentication)
        let router = Router()
        gateway.addRoutes(to: router)
        let routes = Set(router.routes.map { "\($0.method.rawValue.lowercased()) \($0.path)" })
        let described = Set(
            try Self.paths(try Self.document(gateway)).flatMap { path, operations in
                operations.keys.map { "\($0) \(path)" }
            })
        #expect(routes == described)
        #expect(routes.contains("get /openapi.json") && routes.contains("get /readyz") && routes.count == 6)
    }

    /// Each request schema of the catalogue has its envelope, its values from the schema's export with every sealed
    /// field absent; every `$ref` points at a component; republishing changes the document with the catalogue.
    @Test func theDocumentDescribesTheCatalogueServed() async throws {
        let gateway = try Gateway(keys: keys, version: "2026.11.1", authentication: .none)
        let document = try Self.document(gateway)
        #expect((document["openapi"] as? String) == "3.1.0")
        #expect(((document["info"] as? [String: Any])?["version"] as? String) == "2026.11.1")
        let components = try Self.components(document)
        let requests = validator.schemaIDs.filter { validator.schema($0)?.kind == .request }
        #expect(requests.count >= 5)
        for id in requests {
            let envelope = try #require(components["Envelope.\(id)"] as? [String: Any], "\(id)")
            let properties = try #require(envelope["properties"] as? [String: Any])
            #expect(
                ((properties["schemaVersion"] as? [String: Any])?["const"] as? String)
                    == validator.schema(id)?.version)
            #expect(components[id] != nil, "the values of \(id)")
        }
        // A sealed field travels in encryptedFields: never in the values.
        for (id, sealed) in [("card-create", "cardPin"), ("payment-account", "cardNumber"), ("card-update", "pin")] {
            let values = try #require(components[id] as? [String: Any])
            let properties = try #require(values["properties"] as? [String: Any])
            #expect(properties[sealed] as? Bool == false, "\(id) \(sealed)")
            #expect(!((values["required"] as? [String]) ?? []).contains(sealed))
        }
        #expect(components["card-response"] == nil, "a response schema cannot be posted")
        // Every reference resolves.
        var references: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let target = object["$ref"] as? String { references.append(target) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        #expect(references.count > 20)
        for reference in Set(references) {
            #expect(reference.hasPrefix("#/components/schemas/"), "\(reference)")
            #expect(components[String(reference.dropFirst("#/components/schemas/".count))] != nil, "\(reference)")
        }
        // The address rules every export shares are written once.
        let body = gateway.openAPIDocument()
        #expect(body.count < 2 * 1_360_000, "\(body.count) bytes")

        try await gateway.publish(try stricterDocuments(), version: "2026.11.2", allowBreaking: true)
        #expect(((try Self.document(gateway)["info"] as? [String: Any])?["version"] as? String) == "2026.11.2")
    }

    /// The credentials: none without authentication (and no 401 or 403); API keys and JWTs as bearer schemes with
    /// every scope, 401 with its `WWW-Authenticate` header, and 403.
    @Test func theCredentialsAreTheOnesTheGatewayTakes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let open = try Self.document(try Gateway(keys: keys, version: "1", authentication: .none))
        #expect((open["components"] as? [String: Any])?["securitySchemes"] == nil)
        let openAnswers = try Self.responses(open, "post", "/v1/requests")
        #expect(openAnswers["401"] == nil && openAnswers["403"] == nil)
        #expect(Set(openAnswers.keys).isSuperset(of: ["200", "400", "409", "413", "415", "422", "429", "503"]))

        let keyed = try Self.document(
            try Gateway(keys: keys, version: "1", authentication: .apiKeys(APIKeys(directory: folder))))
        let schemes = try #require((keyed["components"] as? [String: Any])?["securitySchemes"] as? [String: Any])
        #expect(Set(schemes.keys) == ["apiKey"])
        let post = try #require(try Self.paths(keyed)["/v1/requests"]?["post"] as? [String: Any])
        let security = try #require(post["security"] as? [[String: [String]]])
        #expect(security.count == 1)
        let scopes = try #require(security.first?["apiKey"])
        #expect(scopes.contains("requests:*") && scopes.contains("requests:card-create"))
        let answers = try Self.responses(keyed, "post", "/v1/requests")
        let unauthorized = try #require(answers["401"])
        #expect((unauthorized["headers"] as? [String: Any])?["WWW-Authenticate"] != nil)
        #expect(answers["403"] != nil)
        #expect((try Self.responses(keyed, "get", "/v1/schemas")["200"]?["headers"] as? [String: Any])?.count == 2)
    }

    /// What the gateway answers on each route, a status and headers the document gives for it.
    @Test func everyAnswerIsOneTheDocumentDescribes() async throws {
        var limits = Gateway.Limits()
        limits.maxBodyBytes = 4_096
        let gateway = try Gateway(keys: keys, version: "1", limits: limits, authentication: .none)
        let document = try Self.document(gateway)
        try await withLoopbackGateway(gateway) { url, _, _ in
            func check(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:])
                async throws -> Int
            {
                var request = URLRequest(url: url.appendingPathComponent(String(path.dropFirst())))
                request.httpMethod = method.uppercased()
                for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
                let (data, response): (Data, URLResponse)
                if let body {
                    (data, response) = try await URLSession.shared.upload(for: request, from: Data(body))
                } else {
                    (data, response) = try await URLSession.shared.data(for: request)
                }
                let http = try #require(response as? HTTPURLResponse)
                let answers = try Self.responses(document, method, path)
                let described = try #require(answers[String(http.statusCode)], "\(method) \(path) \(http.statusCode)")
                for (name, header) in (described["headers"] as? [String: [String: Any]]) ?? [:]
                where header["required"] as? Bool == true {
                    #expect(http.value(forHTTPHeaderField: name) != nil, "\(method) \(path) \(http.statusCode) \(name)")
                }
                if described["content"] != nil { #expect(!data.isEmpty, "\(method) \(path)") }
                return http.statusCode
            }
            let json = ["Content-Type": "application/json"]
            let valid = try CardRequests.sealed(
                card: CardRequests.number(1), id: "documented-1", at: Date(), validator: validator, keys: keys)
            #expect(try await check("post", "/v1/requests", body: valid, headers: json) == 200)
            #expect(try await check("post", "/v1/requests", body: Array("{".utf8), headers: json) == 422)
            #expect(
                try await check("post", "/v1/requests", body: valid, headers: ["Content-Type": "text/plain"]) == 415)
            #expect(
                try await check("post", "/v1/requests", body: Array(repeating: 0x20, count: 5_000), headers: json)
                    == 413)
            let etag = gateway.catalogue.etag
            #expect(try await check("get", "/v1/schemas") == 200)
            #expect(try await check("get", "/v1/schemas", headers: ["If-None-Match": etag]) == 304)
            #expect(try await check("get", "/openapi.json") == 200)
            #expect(try await check("get", "/healthz") == 200)
            #expect(try await check("get", "/readyz") == 200)
            #expect(try await check("get", "/metrics") == 200)
        }
    }

    /// A method the gateway does not take on one of its paths is 405 with the methods it does take (schemathesis's
    /// `unsupported_method`); a path it does not have stays 404, and an app's own route on the same router, added
    /// after the gateway's, is the app's.
    @Test func anotherMethodOnAKnownPathIsAnswered405WithAllow() async throws {
        let gateway = try Gateway(keys: keys, version: "1", authentication: .none)
        let router = Router()
        gateway.addRoutes(to: router)
        router.delete("v1/schemas") { _, _ in "the app's own" }
        router.get("app/status") { _, _ in "up" }
        try await withRunningServer({ onServerRunning in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: onServerRunning)
        }) { port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            func send(_ method: String, _ path: String) async throws -> (Int, String?, String) {
                var request = URLRequest(url: url.appendingPathComponent(path))
                request.httpMethod = method
                let (data, response) = try await URLSession.shared.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                return (http.statusCode, http.value(forHTTPHeaderField: "Allow"), String(decoding: data, as: UTF8.self))
            }
            #expect(try await send("PUT", "v1/requests").0 == 405)
            #expect(try await send("PUT", "v1/requests").1 == "POST")
            #expect(try await send("GET", "v1/requests").1 == "POST")
            #expect(try await send("TRACE", "healthz").0 == 405)
            #expect(try await send("POST", "healthz").1 == "GET")
            #expect(try await send("PATCH", "openapi.json").1 == "GET")
            #expect(try await send("DELETE", "metrics").1 == "GET")
            #expect(try await send("GET", "nowhere").0 == 404)
            #expect(try await send("DELETE", "v1/schemas").2 == "the app's own")
            #expect(try await send("GET", "app/status").2 == "up")
            #expect(try await send("GET", "healthz").0 == 200)
        }
    }

    /// Ready while the catalogue is in date; 503 once it has expired, with the check that failed named.
    @Test func readinessFailsWhenTheCatalogueHasExpired() async throws {
        let later = Date().addingTimeInterval(Gateway.Catalogue.defaultLifetime + 60)
        let fresh = try Gateway(keys: keys, version: "1", authentication: .none)
        let stale = try Gateway(keys: keys, version: "1", now: { later }, authentication: .none)
        #expect(await fresh.readiness().isReady)
        let expired = await stale.readiness()
        #expect(!expired.isReady && expired.checks == ["catalogue": "expired"] && expired.status == "notReady")
        try await withLoopbackGateway(stale) { url, _, _ in
            let (data, response) = try await URLSession.shared.data(from: url.appendingPathComponent("readyz"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 503 && http.value(forHTTPHeaderField: "Retry-After") == "1")
            #expect(
                String(decoding: data, as: UTF8.self)
                    == #"{"status":"notReady","catalogue":"1","checks":{"catalogue":"expired"}}"#)
            let (health, _) = try await URLSession.shared.data(from: url.appendingPathComponent("healthz"))
            #expect(String(decoding: health, as: UTF8.self) == #"{"status":"ok"}"#)
        }
        func ready(_ gateway: Gateway) -> Double? {
            gateway.metricsText.split(separator: "\n").first { $0.hasPrefix("dce_gateway_ready ") }
                .flatMap { Double($0.dropFirst("dce_gateway_ready ".count)) }
        }
        #expect(ready(stale) == 0)
        #expect(ready(fresh) == 1)
    }

    /// SIGTERM under load: `/readyz` answers 503 at once while `/healthz` and the requests are still served; a client
    /// that stops sending when readiness fails (as a load balancer does) loses nothing and gets nothing twice; the
    /// process stops after the drain, with status 0.
    @Test func aSIGTERMDrainsBeforeTheGatewayStopsAndNothingIsLostOrAnsweredTwice() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try keys.encryption.write(to: folder.appendingPathComponent("encryption.key"))
        try keys.signing.write(to: folder.appendingPathComponent("signing.key"))
        // Every request presents a card of its own: no card-testing limit here, which would answer 429.
        let gateway = try GatewayProcess(
            keys: folder, in: folder, arguments: ["--drain-seconds", "2", "--max-cards-per-caller-per-minute", "0"])
        defer { gateway.stop() }
        let balancer = Balancer()
        let url = gateway.url
        let validator = validator
        let keys = keys
        // Four clients, each a new connection per request, until readiness fails.
        let clients = (0..<4).map { client in
            Task {
                // A session per client: with one shared by four at once, FoundationNetworking now and then left a
                // request's bytes unsent (the gateway saw nothing, and closed the connection idle 30 s later).
                let session = URLSession(configuration: .ephemeral)
                defer { session.finishTasksAndInvalidate() }
                var outcomes: [String] = []
                var index = 0
                while balancer.sending {
                    index += 1
                    let envelope = try CardRequests.sealed(
                        card: CardRequests.number(client * 10_000 + index), id: "drain-\(client)-\(index)",
                        at: Date(), validator: validator, keys: keys)
                    var request = URLRequest(url: url.appendingPathComponent("v1/requests"))
                    request.httpMethod = "POST"
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                    request.setValue("close", forHTTPHeaderField: "Connection")
                    request.httpBody = Data(envelope)
                    do {
                        let (_, response) = try await session.data(for: request)
                        outcomes.append(String((response as? HTTPURLResponse)?.statusCode ?? -1))
                    } catch {
                        outcomes.append("\(error)")
                    }
                }
                return outcomes
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let terminated = ContinuousClock.now
        gateway.process.terminate()
        // The balancer's check, every 50 ms, until it fails.
        var readiness = 0
        while ContinuousClock.now - terminated < .seconds(2) {
            let (_, response) = try await URLSession.shared.data(from: url.appendingPathComponent("readyz"))
            readiness = (response as? HTTPURLResponse)?.statusCode ?? -1
            if readiness == 503 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(readiness == 503)
        balancer.stop()
        let (health, response) = try await URLSession.shared.data(from: url.appendingPathComponent("healthz"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && !health.isEmpty)
        var sent = 0
        for client in clients {
            let outcomes = try await client.value
            sent += outcomes.count
            #expect(outcomes.allSatisfy { $0 == "200" }, "\(outcomes.filter { $0 != "200" })")
        }
        #expect(sent > 4)
        #expect(gateway.process.waitForExit(within: 30))
        #expect(ContinuousClock.now - terminated >= .seconds(2))
        #expect(gateway.process.terminationStatus == 0)
        // One access log line per request sent: none lost, none answered twice.
        let answered = gateway.output.split(separator: "\n").filter {
            $0.contains("request answered") && $0.contains("path=/v1/requests")
        }
        #expect(answered.count == sent)
        #expect(gateway.output.contains("draining"), "\(gateway.output)")
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dce-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Whether the clients may send: what a load balancer decides from readiness.
private final class Balancer: @unchecked Sendable {
    private let lock = NSLock()
    private var open = true

    var sending: Bool { lock.withLock { open } }

    func stop() { lock.withLock { open = false } }
}
