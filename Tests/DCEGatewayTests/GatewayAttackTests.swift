import Crypto
import DCECrypto
import DCEEngine
import DCEEnvelope
import DCEGateway
import Foundation
import Hummingbird
import InMemoryLogging
import Logging
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The reference gateway attacked as a hostile client would, and on a bad day, over HTTP on loopback: every
/// finding of the security review is a test here.
@Suite(.serialized)
struct GatewayAttackTests {
    let keys = Gateway.Keys.generate()
    let validator: Validator

    init() throws {
        validator = try Validator(source: .bundled)
    }

    // MARK: - Idempotency and replay

    @Test func aSeenIDWithADifferentBodyIsRefusedNeverAnsweredWithAnotherRequestsResult() async throws {
        try await withGateway { server in
            let first = try await server.post(
                try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "id-1"))
            #expect(first.status == 200)
            let cardID = try #require(first.response.payload.member("cardId"))
            let second = try await server.post(
                try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "GBP"}"#, id: "id-1"))
            #expect(second.status == 409)
            #expect(second.response.errors.map(\.rule) == [.idempotencyConflict])
            #expect(!second.text.contains(cardID))
            // The same request again gets the same answer, byte for byte, and is not processed again.
            let again = try await server.post(try #require(first.sent))
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(server.backendCalls == 1)
        }
    }

    @Test func anInvalidRequestSentFirstDoesNotPoisonItsID() async throws {
        try await withGateway { server in
            let invalid = try await server.post(
                try envelope(#"{"programName": "P", "currency": "EURO"}"#, id: "victim"))
            #expect(invalid.status == 422)
            let genuine = try await server.post(
                try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "victim"))
            #expect(genuine.status == 200)
            #expect(genuine.response.status == .accepted)
        }
    }

    @Test func aCapturedSealedEnvelopeIsNeverProcessedTwice() async throws {
        var limits = Gateway.Limits()
        limits.rememberedRequests = 20
        try await withGateway(limits: limits) { server in
            let captured = try sealed(
                #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#, id: "captured",
                at: server.clock.now)
            let first = try await server.post(captured)
            #expect(first.status == 200)
            // Many other requests, more than can be remembered: the gateway refuses new ones rather than forget.
            var refused = 0
            for index in 0..<30 {
                let answer = try await server.post(
                    try envelope(
                        #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "other-\(index)",
                        at: server.clock.now))
                if answer.status == 503 {
                    refused += 1
                    #expect(answer.retryAfter != nil)
                    #expect(answer.response.errors.map(\.rule) == [.overloaded])
                }
            }
            #expect(refused == 11)
            let replayed = try await server.post(captured)
            #expect(replayed.body == first.body)
            // Once the window has passed the envelope is refused by its age, never processed again.
            server.clock.advance(by: 301)
            let late = try await server.post(captured)
            #expect(late.status == 422)
            #expect(late.response.errors.map(\.rule) == [.replayWindow])
            #expect(server.backendCalls == 20)
            // Old answers are forgotten after the window, so new requests are taken again.
            server.clock.advance(by: 61)
            let fresh = try await server.post(
                try envelope(
                    #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "fresh", at: server.clock.now))
            #expect(fresh.status == 200)
        }
    }

    @Test func theCreationTimeIsSealedAndJudged() async throws {
        try await withGateway { server in
            let now = server.clock.now
            // Moved forward to look fresh: the seal binds the time, so the envelope no longer opens.
            let old = try sealed(
                #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#, id: "old",
                at: now.addingTimeInterval(-3600))
            let refreshed = String(decoding: old, as: UTF8.self).replacingOccurrences(
                of: RFC3339.string(from: now.addingTimeInterval(-3600)), with: RFC3339.string(from: now))
            let moved = try await server.post(Array(refreshed.utf8))
            #expect(moved.response.errors.map(\.rule.rawValue) == ["tampered"])
            let stale = try await server.post(old)
            #expect(stale.response.errors.map(\.rule) == [.replayWindow])
            let future = try await server.post(
                try envelope(
                    #"{"programName": "SKRILL-VIRTUAL-MC-EEA"}"#, id: "future", at: now.addingTimeInterval(600)))
            #expect(future.response.errors.map(\.rule) == [.replayWindow])
            let undated = String(
                decoding: try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA"}"#, id: "undated", at: now),
                as: UTF8.self
            )
            .replacingOccurrences(of: #""createdAt":"\#(RFC3339.string(from: now))","#, with: "")
            let missing = try await server.post(Array(undated.utf8))
            #expect(missing.status == 422)
            #expect(missing.response.errors.map(\.rule) == [.replayWindow])
            #expect(server.backendCalls == 0)
        }
    }

    // MARK: - What may be posted

    @Test func aPCIValueInClearIsRefusedAndNeverEchoedOrLogged() async throws {
        try await withGateway { server in
            let answer = try await server.post(
                try envelope(
                    #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "1234"}"#, id: "clear-pin")
            )
            #expect(answer.status == 422)
            #expect(answer.response.errors.map(\.rule.rawValue) == ["notEncrypted"])
            #expect(answer.response.errors.first?.message.contains("/cardPin") == true)
            #expect(!answer.text.contains("1234"))
            #expect(server.backendCalls == 0)
            #expect(!server.logs.isEmpty)
            #expect(server.logs.allSatisfy { !$0.contains("1234") })
        }
    }

    @Test(arguments: ["gift-cards-response", "card-response", "address"])
    func onlyRequestSchemasCanBePosted(schema: String) async throws {
        try await withGateway { server in
            let answer = try await server.post(try envelope(#"{"cards": []}"#, id: "kind-\(schema)", schema: schema))
            #expect(answer.status == 422)
            #expect(answer.response.errors.map(\.rule.rawValue) == ["notARequest"])
        }
    }

    @Test(arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "application/jsonp"] as [String?])
    func onlyJSONBodiesAreTaken(contentType: String?) async throws {
        try await withGateway { server in
            let body = try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "media")
            let refused = try await server.post(body, contentType: contentType)
            #expect(refused.status == 415)
            #expect(refused.response.errors.map(\.rule) == [.unsupportedMediaType])
            let taken = try await server.post(body, contentType: "application/json; charset=utf-8")
            #expect(taken.status == 200)
        }
    }

    // MARK: - Callers

    /// With API keys on, a request without a valid credential is refused before its body is read (401 with a
    /// `WWW-Authenticate` challenge, the same answer whatever failed), a key without the schema's scope gets 403,
    /// a revoked key is refused from the next request on, and no log line holds a key.
    @Test func onlyAKeyWithTheSchemasScopeMayPostAndARevokedKeyIsRefused() async throws {
        let keys = try Self.keyDirectory()
        defer { try? FileManager.default.removeItem(at: keys.url!.deletingLastPathComponent()) }
        let creator = try await keys.create(name: "issuer", scopes: ["requests:card-create"])
        let reader = try await keys.create(name: "reader", scopes: ["requests:card-tokenize"])
        #expect(creator.hasPrefix("dce_") && creator.count > 40 && creator != reader)
        #expect(try String(contentsOf: keys.url!, encoding: .utf8).contains(creator) == false)
        try await withGateway(authentication: .apiKeys(keys)) { server in
            let values = #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#
            for authorization in [nil, "Bearer", "Bearer dce_unknown", "Basic \(creator)", creator] as [String?] {
                let refused = try await server.post(
                    try sealed(values, id: "no-\(authorization?.count ?? 0)", at: server.clock.now),
                    authorization: authorization)
                #expect(refused.status == 401)
                #expect(refused.challenge == #"Bearer realm="dce-gateway""#)
                #expect(refused.response.errors.map(\.rule) == [.unauthenticated])
            }
            let scoped = try await server.post(
                try sealed(values, id: "scoped", at: server.clock.now), authorization: "Bearer \(reader)")
            #expect(scoped.status == 403)
            #expect(scoped.response.errors.map(\.rule) == [.missingScope])
            // A schema the gateway does not know is not echoed, nor logged.
            let made = String(repeating: "s", count: 2_000)
            let known = String(decoding: try envelope("{}", id: "unknown-schema", at: server.clock.now), as: UTF8.self)
            let unknown = try await server.post(
                Array(known.replacingOccurrences(of: #""card-create""#, with: "\"\(made)\"").utf8),
                authorization: "Bearer \(reader)")
            #expect(unknown.status == 403)
            #expect(unknown.response.errors.map(\.message) == ["this credential may not post this schema"])
            #expect(!server.logs.contains { $0.contains(made.prefix(100)) })
            let accepted = try await server.post(
                try sealed(values, id: "accepted", at: server.clock.now), authorization: "bearer \(creator)")
            #expect(accepted.status == 200)
            try await keys.revoke(name: "issuer")
            // The gateway looks at the file again at most once a second.
            try await Task.sleep(for: .milliseconds(1_100))
            let revoked = try await server.post(
                try sealed(values, id: "after-revoke", at: server.clock.now), authorization: "Bearer \(creator)")
            #expect(revoked.status == 401)
            #expect(server.backendCalls == 1)
            #expect(server.logs.contains { $0.contains("caller: issuer") || $0.contains("\"caller\": issuer") })
            #expect(!server.logs.contains { $0.contains(creator) || $0.contains(reader) })
            #expect(try await keys.list().map { "\($0.name) \($0.revoked != nil)" } == ["issuer true", "reader false"])
        }
        await #expect(throws: APIKeyError.self) { _ = try await keys.create(name: "reader", scopes: ["requests:*"]) }
        await #expect(throws: APIKeyError.self) { _ = try await keys.create(name: "bad name", scopes: ["requests:*"]) }
        await #expect(throws: APIKeyError.self) { _ = try await keys.create(name: "x", scopes: ["card-create"]) }
        await #expect(throws: APIKeyError.self) { try await keys.revoke(name: "nobody") }
    }

    /// API keys in a new temporary directory.
    static func keyDirectory() throws -> APIKeys {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return APIKeys(directory: directory)
    }

    /// A request id is one caller's: the same id and body from two callers are two requests, each processed once.
    @Test func theSameRequestIDFromTwoCallersIsTwoRequests() async throws {
        let keys = try Self.keyDirectory()
        defer { try? FileManager.default.removeItem(at: keys.url!.deletingLastPathComponent()) }
        let first = try await keys.create(name: "first", scopes: ["requests:*"])
        let second = try await keys.create(name: "second", scopes: ["requests:card-create"])
        try await withGateway(authentication: .apiKeys(keys)) { server in
            let body = try sealed(
                #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#, id: "shared",
                at: server.clock.now)
            let a = try await server.post(body, authorization: "Bearer \(first)")
            let b = try await server.post(body, authorization: "Bearer \(second)")
            let again = try await server.post(body, authorization: "Bearer \(first)")
            #expect(a.status == 200 && b.status == 200 && again.status == 200)
            #expect(server.backendCalls == 2)
            #expect(again.body == a.body)
        }
    }

    // MARK: - Bounds

    @Test func aBodyOverTheLimitIsRefusedWithoutBeingRead() async throws {
        var limits = Gateway.Limits()
        limits.maxBodyBytes = 64 << 10
        try await withGateway(limits: limits) { server in
            let body = try hostileEnvelope(bytes: 200 << 10, id: "big")
            let answer = try await server.post(body)
            #expect(answer.status == 413)
            #expect(answer.response.errors.map(\.rule) == [.bodyTooLarge])
            // Without a Content-Length (chunked), the limit holds while reading.
            let chunked = try RawConnection(port: server.port)
            try chunked.send(
                "POST /v1/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            let chunk = String(decoding: body.prefix(100 << 10), as: UTF8.self)
            try chunked.send(String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n")
            #expect(chunked.receiveStatusLine(timeout: 30)?.contains(" 413 ") == true)
        }
    }

    /// A client that writes its whole body before it reads (Python's `urllib`) gets an answer given before the body
    /// is read at once: the gateway says `Connection: close`, shuts its side once the answer is out and drops the rest
    /// of the body, instead of leaving the client blocked on a full window until a timeout.
    @Test func anAnswerBeforeTheBodyReachesAClientThatWritesItAllFirstAndTheConnectionCloses() async throws {
        var limits = Gateway.Limits()
        limits.maxBodyBytes = 64 << 10
        limits.bodyTimeout = .seconds(120)
        limits.idleTimeout = .seconds(120)
        try await withGateway(limits: limits) { server in
            // urllib's head says `Connection: close`, after which the server would read nothing more of its own.
            for connection in ["", "Connection: close\r\n"] {
                let started = Date()
                let client = try RawConnection(port: server.port)
                let size = 4 << 20
                try client.send(
                    "POST /v1/requests HTTP/1.1\r\nHost: x\r\n\(connection)Content-Type: application/json\r\nContent-Length: \(size)\r\n\r\n"
                )
                try client.send(String(repeating: "a", count: size))
                let head = client.receiveHead(timeout: 30)
                #expect(head?.hasPrefix("HTTP/1.1 413 ") == true)
                #expect(head?.lowercased().contains("\r\nconnection: close\r\n") == true)
                #expect(client.closedByPeer(within: 10))
                // Long before the gateway's body and idle timeouts (120 s): the rest of the body was read and dropped.
                #expect(Date().timeIntervalSince(started) < 60)
            }
            // A request read whole keeps its connection.
            let kept = try RawConnection(port: server.port)
            try kept.send("GET /v1/schemas HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(kept.receiveHead(timeout: 10)?.lowercased().contains("connection: close") == false)
            #expect(!kept.closedByPeer(within: 1))
        }
    }

    @Test func anAnswerListsAtMostTheCapAndAReusedIDNeverGetsAnotherAnswer() async throws {
        var limits = Gateway.Limits()
        limits.maxErrorsPerAnswer = 25
        try await withGateway(limits: limits) { server in
            let hostile = try await server.post(try hostileEnvelope(bytes: 900 << 10, id: "shared-id"))
            #expect(hostile.status == 422)
            #expect(hostile.response.errors.count == 25)
            #expect(hostile.response.omittedErrors > 10_000)
            #expect(hostile.body.count < 16 << 10)
            let small = try await server.post(
                try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "shared-id"))
            #expect(small.status == 200)
            #expect(small.body.count < 1024)
        }
    }

    @Test func hostileRequestsDoNotHoldUpAValidOneAndMemoryStaysBounded() async throws {
        try await withGateway { server in
            let hostile = try (0..<4).map { try hostileEnvelope(bytes: (1 << 20) - 512, id: "hostile-\($0)") }
            let baseline = ResidentMemory.current
            let peak = ResidentMemory.Sampler()
            let finished = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for body in hostile {
                    group.addTask {
                        let answer = try await server.post(body)
                        #expect(answer.status == 422)
                        finished.add()
                    }
                }
                // The valid requests go to a free validation thread, not behind the hostile ones.
                try await Task.sleep(nanoseconds: 50_000_000)
                var latencies: [Double] = []
                for index in 0..<5 {
                    let start = ContinuousClock.now
                    let answer = try await server.post(
                        try envelope(
                            #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "valid-\(index)"))
                    let elapsed = ContinuousClock.now - start
                    #expect(answer.status == 200)
                    latencies.append(
                        Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
                }
                #expect(finished.value < 4, "the valid requests were answered only after every hostile one")
                // Times and memory are the uninstrumented build's: a sanitizer slows every access and keeps shadow
                // memory of its own.
                let median = latencies.sorted()[latencies.count / 2]
                if !ResidentMemory.underSanitizer {
                    #expect(median < 100, "valid requests took \(latencies) ms under attack")
                }
                try await group.waitForAll()
            }
            let grown = peak.stop() - baseline
            // Four 1 MiB bodies with ~100,000 violations each; before the bounds they took gigabytes.
            if !ResidentMemory.underSanitizer {
                #expect(grown < 400 << 20, "resident memory grew by \(grown >> 20) MiB")
            }
        }
    }

    @Test func whenValidationIsSaturatedTheAnswerIs503WithRetryAfter() async throws {
        var limits = Gateway.Limits()
        limits.validationThreads = 1
        limits.largeBodyThreads = 1
        limits.queuedRequests = 1
        try await withGateway(limits: limits) { server in
            let bodies = try (0..<6).map { try hostileEnvelope(bytes: 900 << 10, id: "flood-\($0)") }
            let answers = try await withThrowingTaskGroup(of: Reply.self) { group in
                for body in bodies { group.addTask { try await server.post(body) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let saturated = answers.filter { $0.status == 503 }
            #expect(!saturated.isEmpty)
            #expect(saturated.allSatisfy { $0.retryAfter != nil && $0.response.errors.map(\.rule) == [.overloaded] })
        }
    }

    // MARK: - Connections

    @Test func slowClientsAreDisconnected() async throws {
        var limits = Gateway.Limits()
        limits.headerTimeout = .milliseconds(500)
        limits.bodyTimeout = .milliseconds(500)
        limits.idleTimeout = .milliseconds(500)
        try await withGateway(limits: limits) { server in
            let halfHead = try RawConnection(port: server.port)
            try halfHead.send("POST /v1/requests HTTP/1.1\r\nHost: x\r\nContent-Ty")
            #expect(halfHead.closedByPeer(within: 5))
            let halfBody = try RawConnection(port: server.port)
            try halfBody.send(
                "POST /v1/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"requ"
            )
            #expect(halfBody.closedByPeer(within: 5))
            let idle = try RawConnection(port: server.port)
            try idle.send("GET /v1/schemas HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(idle.receiveStatusLine(timeout: 5)?.contains(" 200 ") == true)
            #expect(idle.closedByPeer(within: 5))
        }
    }

    @Test func openConnectionsAreLimited() async throws {
        var limits = Gateway.Limits()
        limits.maxConnections = 4
        try await withGateway(limits: limits) { server in
            let held = try (0..<4).map { _ in try RawConnection(port: server.port) }
            try await Task.sleep(nanoseconds: 200_000_000)
            let waiting = try RawConnection(port: server.port)
            try waiting.send("GET /v1/schemas HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(waiting.receiveStatusLine(timeout: 1) == nil, "a connection over the limit was served")
            held[0].close()
            #expect(waiting.receiveStatusLine(timeout: 5)?.contains(" 200 ") == true)
        }
    }

    // MARK: - What operations sees

    @Test func everyAnswerIsOneAccessLogLineAndTheMetricsCountAKnownMix() async throws {
        try await withGateway { server in
            let valid = try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#, id: "ops-1")
            #expect(try await server.post(valid).status == 200)
            #expect(try await server.post(valid).status == 200)  // replayed
            #expect(
                try await server.post(
                    try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "GBP"}"#, id: "ops-1")
                ).status == 409)
            #expect(
                try await server.post(
                    try envelope(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EURO"}"#, id: "ops-2")
                ).status == 422)
            let madeUp = String(decoding: try envelope(#"{"currency": "EUR"}"#, id: "ops-3"), as: UTF8.self)
                .replacingOccurrences(of: #""schema":"card-create""#, with: #""schema":"made-up""#)
            #expect(try await server.post(Array(madeUp.utf8)).status == 422)
            #expect(try await server.post(valid, contentType: "text/plain").status == 415)
            #expect(try await server.get("/v1/schemas").status == 200)
            let scraped = try await server.get("/metrics")
            #expect(scraped.status == 200)
            let metrics = Self.samples(scraped.text)
            #expect(metrics[#"dce_gateway_requests_total{path="/v1/requests",status="200",schema="card-create"}"#] == 2)
            #expect(metrics[#"dce_gateway_requests_total{path="/v1/requests",status="409",schema=""}"#] == 1)
            #expect(metrics[#"dce_gateway_requests_total{path="/v1/requests",status="422",schema="card-create"}"#] == 1)
            // A schema a client makes up is counted as unknown, not as a series of its own.
            #expect(metrics[#"dce_gateway_requests_total{path="/v1/requests",status="422",schema="unknown"}"#] == 1)
            #expect(!scraped.text.contains("made-up"))
            #expect(metrics[#"dce_gateway_requests_total{path="/v1/requests",status="415",schema=""}"#] == 1)
            #expect(metrics[#"dce_gateway_requests_total{path="/v1/schemas",status="200",schema=""}"#] == 1)
            #expect(metrics[#"dce_gateway_idempotency_total{outcome="replayed"}"#] == 1)
            #expect(metrics[#"dce_gateway_idempotency_total{outcome="conflict"}"#] == 1)
            #expect(metrics[#"dce_gateway_refusals_total{reason="idempotencyConflict"}"#] == 1)
            #expect(metrics[#"dce_gateway_refusals_total{reason="invalid"}"#] == 1)
            #expect(metrics[#"dce_gateway_refusals_total{reason="unsupportedMediaType"}"#] == 1)
            #expect(metrics[#"dce_gateway_validation_duration_seconds_count{schema="card-create"}"#] == 2)
            #expect(metrics[#"dce_gateway_catalogue_info{version="1"}"#] == 1)
            #expect((metrics["dce_gateway_catalogue_expiry_timestamp_seconds"] ?? 0) > Date().timeIntervalSince1970)

            // One access log line per answer, with what an operator needs and no message or value.
            let lines = server.logs.filter { $0.contains("request answered") }
            #expect(lines.count == 7)
            let accepted = try #require(lines.first)
            let fields = [
                #""method": POST"#, #""path": /v1/requests"#, #""status": 200"#, #""durationMs": "#,
                #""requestId": ops-1"#,
                #""schema": card-create"#, #""schemaVersion": 1.0.0"#,
            ]
            for field in fields {
                #expect(accepted.contains(field), "\(field) missing from \(accepted)")
            }
            #expect(lines[1].contains("replayed"))
            #expect(lines[3].contains("format"))  // the rule code of the invalid currency
            #expect(!lines.joined().contains("EURO"))
            #expect(lines.last?.contains(#""path": /v1/schemas"#) == true)
        }
    }

    /// Prometheus text exposition samples by series (`name{labels}`), comments left out.
    private static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    // MARK: - Helpers

    /// A running gateway on a loopback port, with a clock the test moves and what the backend and log saw.
    final class Server: Sendable {
        let port: Int
        let clock: ManualClock
        private let calls: Counter
        private let captured: InMemoryLogHandler

        init(port: Int, clock: ManualClock, calls: Counter, captured: InMemoryLogHandler) {
            self.port = port
            self.clock = clock
            self.calls = calls
            self.captured = captured
        }

        var backendCalls: Int { calls.value }
        /// Each log record, with its metadata, as text.
        var logs: [String] { captured.entries.map { "\($0.level) \($0.message) \($0.metadata)" } }

        func post(_ body: [UInt8], contentType: String? = "application/json", authorization: String? = nil)
            async throws -> Reply
        {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/requests")!)
            request.httpMethod = "POST"
            request.httpBody = Data(body)
            request.timeoutInterval = 60
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
            let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return Reply(
                sent: body, status: http.statusCode, body: [UInt8](data),
                retryAfter: http.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) },
                challenge: http.value(forHTTPHeaderField: "WWW-Authenticate"))
        }

        func get(_ path: String) async throws -> Fetched {
            let (data, response) = try await URLSession(configuration: .ephemeral).data(
                from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            return Fetched(
                status: try #require(response as? HTTPURLResponse).statusCode,
                text: String(decoding: data, as: UTF8.self))
        }
    }

    struct Fetched: Sendable {
        var status: Int
        var text: String
    }

    struct Reply: Sendable {
        var sent: [UInt8]?
        var status: Int
        var body: [UInt8]
        var retryAfter: Int?
        var challenge: String? = nil
        var text: String { String(decoding: body, as: UTF8.self) }
        var response: PDResponse { (try? PDResponse(json: body)) ?? PDResponse(requestID: "", status: .rejected) }
    }

    func withGateway(
        limits: Gateway.Limits = Gateway.Limits(), authentication: Authentication = .none,
        _ body: (Server) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        let calls = Counter()
        let captured = InMemoryLogHandler()
        let gateway = try Gateway(
            keys: keys, version: "1", limits: limits, logger: Logger(label: "attack") { _ in captured },
            now: { clock.now },
            backend: { schema, payload in
                calls.add()
                return ReferenceBackend.answer(schema: schema, payload: payload)
            }, authentication: authentication)
        try await withRunningServer({ onServerRunning in
            gateway.application(
                router: Router(), address: .hostname("127.0.0.1", port: 0), onServerRunning: onServerRunning)
        }) { port in
            try await body(Server(port: port, clock: clock, calls: calls, captured: captured))
        }
    }

    /// An envelope with clear values only, built by hand as a client that skips validation would.
    func envelope(_ values: String, id: String, schema: String = "card-create", at time: Date = Date()) throws
        -> [UInt8]
    {
        let version = try #require(validator.schema(schema)).version
        let context = schema == "card-create" ? #"{"region":"EU"}"# : "{}"
        return Array(
            #"{"requestId":"\#(id)","createdAt":"\#(RFC3339.string(from: time))","schema":"\#(schema)","schemaVersion":"\#(version)","context":\#(context),"tenderType":null,"values":\#(values),"encryptedFields":[]}"#
                .utf8)
    }

    /// The envelope of a valid card-create request, its PIN sealed, as the package's client builds it.
    func sealed(_ json: String, id: String, at time: Date) throws -> [UInt8] {
        let sealer = try HPKEFieldSealer(gatewayPublicKey: try keys.encryptionPublicKey, keyID: keys.encryptionKeyID)
        let built = try validator.prepare("card-create", context: ["region": "EU"]).makeRequest(
            json: Array(json.utf8), requestID: id, sealer: sealer, createdAt: time)
        guard case .valid(let request) = built else { throw CancellationError() }
        return request.json
    }

    /// A card-create envelope of about `bytes` bytes whose values are one unknown member after another: every
    /// member is a violation.
    private func hostileEnvelope(bytes: Int, id: String) throws -> [UInt8] {
        var values = #"{"programName":"SKRILL-VIRTUAL-MC-EEA","currency":"EUR""#
        var index = 0
        while values.utf8.count < bytes - 400 {
            values += #","x\#(index)":0"#
            index += 1
        }
        return try envelope(values + "}", id: id)
    }
}

extension SchemaValue {
    /// A string member of an object, or `nil`.
    fileprivate func member(_ key: String) -> String? {
        guard case .object(let members) = self,
            case .string(let value)? = members.first(where: { $0.key == key })?.value
        else { return nil }
        return value
    }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

/// The resident memory of this process, from `/proc/self/status`.
enum ResidentMemory {
    /// Whether the tests run under ThreadSanitizer or AddressSanitizer, whose shadow memory and slower accesses
    /// make the process's own figures meaningless.
    static let underSanitizer = dlsym(nil, "__tsan_init") != nil || dlsym(nil, "__asan_init") != nil

    static var current: Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Samples the resident memory every 10 ms on a thread of its own until stopped; the highest reading.
    final class Sampler: @unchecked Sendable {
        private let lock = NSLock()
        private var highest = ResidentMemory.current
        private var running = true

        init() {
            Thread { [self] in
                while lock.withLock({ running }) {
                    let reading = ResidentMemory.current
                    lock.withLock { highest = max(highest, reading) }
                    usleep(10_000)
                }
            }.start()
        }

        func stop() -> Int {
            lock.withLock {
                running = false
                return max(highest, ResidentMemory.current)
            }
        }
    }
}

/// A TCP connection written byte by byte, for clients no HTTP library would be: half a head, a stalled body.
final class RawConnection: @unchecked Sendable {
    private var descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, result == 0 else { throw POSIXError(.ECONNREFUSED) }
        // A write the server never reads fails after a minute instead of blocking the test for good.
        var limit = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else {
                throw POSIXError(written < 0 ? POSIXErrorCode(rawValue: errno) ?? .EPIPE : .EPIPE)
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Reads until the peer closes or `seconds` pass; whether it closed.
    func closedByPeer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            guard wait(readable: deadline) else { return false }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
        return false
    }

    /// The head of an answer (status line and header fields, up to the blank line), or `nil` when none arrives in
    /// time.
    func receiveHead(timeout seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let blank = Array("\r\n\r\n".utf8)
        while Date() < deadline {
            if let end = received.indices.first(where: { received[$0...].starts(with: blank) }) {
                return String(decoding: received[..<(end + 2)], as: UTF8.self)
            }
            guard wait(readable: deadline) else { return nil }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            received += buffer[0..<count]
        }
        return nil
    }

    /// The first line of an answer, or `nil` when none arrives in time.
    func receiveStatusLine(timeout seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline, !received.contains(UInt8(ascii: "\n")) {
            guard wait(readable: deadline) else { return nil }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        guard let end = received.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: received[..<end], as: UTF8.self)
    }

    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    private func wait(readable deadline: Date) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
        return poll(&entry, 1, milliseconds) > 0
    }
}
