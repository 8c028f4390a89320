import DCEEngine
import DCEGateway
import DCETestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The issue's attacks on callers against the real `dce-gateway` binary, configured as an operator would
/// (`--api-keys --jwks FILE --issuer --audience`): every forged or foreign token, 1,000 cards from one caller and one
/// card from 50 callers, each refused with its documented status, and neither a credential nor a card number in
/// its output or its metrics.
@Suite(.serialized)
struct GatewayProcessAttackTests {
    let keys = Gateway.Keys.generate()
    let validator: Validator

    init() throws {
        validator = try Validator(source: .bundled)
    }

    @Test func forgedTokensAndCardTestingAreRefusedByTheRunningGateway() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dce-attack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try keys.encryption.write(to: folder.appendingPathComponent("encryption.key"))
        try keys.signing.write(to: folder.appendingPathComponent("signing.key"))
        let issuer = try TokenIssuer()
        let jwks = folder.appendingPathComponent("jwks.json")
        try issuer.jwks().write(to: jwks)
        let key = try await APIKeys(directory: folder).create(name: "tester", scopes: ["requests:*"])
        let gateway = try GatewayProcess(
            keys: folder, in: folder,
            arguments: [
                "--api-keys", "--jwks", jwks.path, "--issuer", issuer.issuer, "--audience", issuer.audience,
                "--clock-skew", "30",
            ])
        defer { gateway.stop() }
        func post(_ envelope: [UInt8], _ credential: String) async throws -> (status: Int, retryAfter: String?) {
            var request = URLRequest(url: gateway.url.appendingPathComponent("v1/requests"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.upload(for: request, from: Data(envelope))
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
        }
        func account(_ index: Int, id: String) throws -> [UInt8] {
            try CardRequests.sealed(
                card: CardRequests.number(index), id: id, at: Date(), validator: validator, keys: keys)
        }

        let now = Date()
        let honest = issuer.claims(subject: "shop-42", scope: "requests:*", now: now)
        let forgeries = try GatewayAttackTests.forgeries(of: issuer, honest: honest, now: now)
        for (index, (name, token)) in forgeries.enumerated() {
            #expect(try await post(try account(9_000 + index, id: "forged-\(index)"), token).status == 401, "\(name)")
        }
        #expect(try await post(try account(8_999, id: "honest"), try issuer.token(honest)).status == 200)

        // 1,000 cards as fast as the gateway answers: within a minute in a normal build, 20 served; a build under a
        // sanitizer is slower, and each minute the window slides lets 20 more through, never more.
        var statuses: [Int: Int] = [:]
        let started = Date()
        for index in 0..<1_000 {
            let answer = try await post(try account(index, id: "test-\(index)"), key)
            statuses[answer.status, default: 0] += 1
            if answer.status == 429 {
                #expect(answer.retryAfter.flatMap { Int($0) }.map { (1...60).contains($0) } == true)
            }
        }
        let minutes = Int(Date().timeIntervalSince(started) / 60) + 1
        let served = statuses[200] ?? 0
        #expect(Set(statuses.keys) == [200, 429])
        #expect(served >= 20 && served <= 20 * minutes, "\(served) served in \(minutes) minute(s)")

        var shared: [Int] = []
        for caller in 0..<50 {
            let token = try issuer.token(issuer.claims(subject: "caller-\(caller)", scope: "requests:payment-account"))
            shared.append(try await post(try account(5_000, id: "shared-\(caller)"), token).status)
        }
        #expect(shared == Array(repeating: 200, count: 5) + Array(repeating: 429, count: 45))

        let (metrics, _) = try await URLSession.shared.data(from: gateway.url.appendingPathComponent("metrics"))
        let exposition = String(decoding: metrics, as: UTF8.self)
        #expect(exposition.contains(#"dce_gateway_refusals_total{reason="cardsPerCaller"} \#(1_000 - served)"#))
        #expect(exposition.contains(#"dce_gateway_refusals_total{reason="callersPerCard"} 45"#))
        #expect(exposition.contains(#"dce_gateway_refusals_total{reason="unauthenticated"} \#(forgeries.count)"#))
        let output = gateway.output
        #expect(output.contains("caller=tester") && output.contains("caller=sub:caller-4"))
        for text in [output, exposition] {
            #expect(!text.contains(key))
            for (_, token) in forgeries where token.count > 40 { #expect(!text.contains(token.suffix(40))) }
            for index in [0, 19, 20, 999, 5_000] { #expect(!text.contains(CardRequests.number(index))) }
        }
    }
}
