import DCECrypto
import DCEEngine
import DCEEnvelope
import DCETestSupport
import Foundation
import Testing

@testable import DCEGateway

/// Card testing as a fraudster runs it against the card endpoints: many cards from one caller, one card from many
/// callers. Each is served up to its limit, then refused 429 with `Retry-After`, counted by reason in `/metrics`,
/// and served again once the window has passed; no card number reaches a log line or a metric.
extension GatewayAttackTests {
    @Test func aThousandCardsFromOneCallerInAMinuteAreServedUpToTheLimit() async throws {
        try await withGateway { server in
            var statuses: [Int: Int] = [:]
            var retryAfters: Set<Int> = []
            for index in 0..<1_000 {
                let reply = try await server.post(
                    try sealedAccount(card: Self.cardNumber(index), id: "test-\(index)", at: server.clock.now))
                statuses[reply.status, default: 0] += 1
                if reply.status == 429 {
                    retryAfters.insert(reply.retryAfter ?? -1)
                    #expect(reply.response.errors.map(\.rule) == [.cardVelocity])
                }
                if index % 100 == 99 { server.clock.advance(by: 1) }
            }
            #expect(statuses == [200: 20, 429: 980])
            #expect(server.backendCalls == 20)
            // The oldest card leaves the window 60 s after it was presented: the clock moved 9 s meanwhile.
            #expect(retryAfters == [51, 52, 53, 54, 55, 56, 57, 58, 59, 60])
            // A card already presented in the window is not a new one; a new one waits for the window.
            let again = try await server.post(
                try sealedAccount(card: Self.cardNumber(0), id: "again-0", at: server.clock.now))
            #expect(again.status == 200)
            server.clock.advance(by: 52)
            let later = try await server.post(
                try sealedAccount(card: Self.cardNumber(5_000), id: "later", at: server.clock.now))
            #expect(later.status == 200)
            let metrics = try await server.get("/metrics").text
            #expect(metrics.contains(#"dce_gateway_refusals_total{reason="cardsPerCaller"} 980"#), "\(metrics)")
            #expect(metrics.contains(#"dce_gateway_requests_total{path="/v1/requests",status="429""#))
            for index in [0, 20, 999] {
                #expect(!server.logs.contains { $0.contains(Self.cardNumber(index)) })
                #expect(!metrics.contains(Self.cardNumber(index)))
            }
            #expect(server.logs.contains { $0.contains(#""refusal": cardsPerCaller"#) }, "\(server.logs.suffix(1))")
            #expect(metrics.contains(#"dce_gateway_caller_requests_total{caller="anonymous",status="429"} 980"#))
        }
    }

    @Test func oneCardFromFiftyCallersIsServedForTheFirstFive() async throws {
        let issuer = try TokenIssuer()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokens = try await Self.verifier(of: issuer, in: directory).tokens
        try await withGateway(authentication: .tokens(tokens)) { server in
            let card = Self.cardNumber(42)
            var statuses: [Int] = []
            for caller in 0..<50 {
                let token = try issuer.token(issuer.claims(subject: "caller-\(caller)", scope: "requests:*"))
                let reply = try await server.post(
                    try sealedAccount(card: card, id: "shared-card-\(caller)", at: server.clock.now),
                    authorization: "Bearer \(token)")
                statuses.append(reply.status)
                if reply.status == 429 { #expect(reply.retryAfter == 3_600) }
            }
            #expect(statuses == Array(repeating: 200, count: 5) + Array(repeating: 429, count: 45))
            // A caller that presented it may present it again; after the hour, a new one may too.
            let first = try issuer.token(issuer.claims(subject: "caller-0", scope: "requests:*"))
            let again = try await server.post(
                try sealedAccount(card: card, id: "again", at: server.clock.now), authorization: "Bearer \(first)")
            #expect(again.status == 200)
            server.clock.advance(by: 3_601)
            let newcomer = try issuer.token(issuer.claims(subject: "caller-49", scope: "requests:*"))
            let later = try await server.post(
                try sealedAccount(card: card, id: "later", at: server.clock.now), authorization: "Bearer \(newcomer)")
            #expect(later.status == 200)
            let metrics = try await server.get("/metrics").text
            #expect(metrics.contains(#"dce_gateway_refusals_total{reason="callersPerCard"} 45"#), "\(metrics)")
            #expect(!server.logs.contains { $0.contains(card) })
            #expect(metrics.contains(#"dce_gateway_caller_requests_total{caller="sub:caller-7",status="429"} 1"#))
        }
    }

    @Test func theLimitsAreJudgedTogetherOnlyForServedRequestsAndZeroTurnsThemOff() {
        let limits = CardVelocity(maxCardsPerCallerPerMinute: 2, maxCallersPerCardPerHour: 1)
        var ledger = CardLedger()
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(ledger.present(["a", "b"], caller: "x", at: now, limits: limits) == .allowed)
        #expect(
            ledger.present(["c"], caller: "x", at: now, limits: limits) == .refused(.cardsPerCaller, retryAfter: 60))
        // The refused card was not noted: another caller may present it.
        #expect(ledger.present(["c"], caller: "y", at: now, limits: limits) == .allowed)
        #expect(
            ledger.present(["a"], caller: "y", at: now + 10, limits: limits)
                == .refused(.callersPerCard, retryAfter: 3_590))
        // One request over the limit on its own waits a whole window.
        #expect(
            ledger.present(["d", "e", "f"], caller: "z", at: now, limits: limits)
                == .refused(.cardsPerCaller, retryAfter: 60))
        let off = CardVelocity(maxCardsPerCallerPerMinute: 0, maxCallersPerCardPerHour: 0)
        #expect((0..<100).allSatisfy { ledger.present(["n\($0)"], caller: "x", at: now, limits: off) == .allowed })
        // Entries leave once every window has passed.
        _ = ledger.present([], caller: "sweeper", at: now + 3_700, limits: limits)
        #expect(ledger.count == 0)
    }

    func sealedAccount(card: String, id: String, at time: Date) throws -> [UInt8] {
        try CardRequests.sealed(card: card, id: id, at: time, validator: validator, keys: keys)
    }

    static func cardNumber(_ index: Int) -> String { CardRequests.number(index) }
}

/// Valid `payment-account` requests for many different cards, as a card tester would send them.
enum CardRequests {
    /// A Visa number of 16 digits, different for each `index`, with its check digit.
    static func number(_ index: Int) -> String {
        let body = "4" + String(format: "%014d", 400_000_000 + index)
        let digits = body.compactMap(\.wholeNumberValue)
        let sum = digits.reversed().enumerated().reduce(0) { total, item in
            let doubled = item.offset % 2 == 0 ? item.element * 2 : item.element
            return total + (doubled > 9 ? doubled - 9 : doubled)
        }
        return body + String((10 - sum % 10) % 10)
    }

    /// The envelope of a valid credit `payment-account` request for `card`, its card number and security code sealed.
    static func sealed(card: String, id: String, at time: Date, validator: Validator, keys: Gateway.Keys) throws
        -> [UInt8]
    {
        let sealer = try HPKEFieldSealer(gatewayPublicKey: try keys.encryptionPublicKey, keyID: keys.encryptionKeyID)
        let json = #"""
            {"cardNumber": "\#(card)", "expiry": "12/39", "securityCode": "123", "cardholderName": "Ivan Petrov",
             "billingAddress": {"line1": "1600 Pennsylvania Ave NW", "city": "Washington", "state": "DC",
                                "zipCode": "205000003", "country": "US"}}
            """#
        let built = try validator.prepare("payment-account", tenderType: "credit").makeRequest(
            json: Array(json.utf8), requestID: id, sealer: sealer, createdAt: time)
        guard case .valid(let request) = built else {
            Issue.record("the payment-account request is not valid: \(built)")
            throw CancellationError()
        }
        return request.json
    }
}
