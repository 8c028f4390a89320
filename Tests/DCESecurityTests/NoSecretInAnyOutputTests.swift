import Crypto
import DCECrypto
import DCEEngine
import DCEEnvelope
import DCEFingerprint
import DCEForms
import DCEGateway
import DCELogging
import DCEModels
import DCEReports
import DCETestSupport
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One test over every output the package produces, for payloads carrying a known PAN, PIN and CVV: reports in
/// every format (with masked copies attached), masked copies, violations (with fingerprints), descriptions and dumps of every public type involved, log lines,
/// stored drafts, the sealed envelope and the gateway's errors. None may contain any of the three in clear.
/// (The command-line tool's outputs have their own canary test in DCEValidateCLITests.)
struct NoSecretInAnyOutputTests {
    static let pan = "4929123456781236"
    static let pin = "8264"
    static let cvv = "739"
    /// When the test's envelopes are built: a fixed time, since a clock's digits (`…19.739Z`) can hold a 3-digit CVV
    /// by chance, which once failed this test with nothing leaked.
    static let createdAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// Payloads that carry the secrets: valid ones, and ones that break every kind of rule around them.
    static let payloads: [(schema: String, context: [String: String], tenderType: String?, json: String)] = [
        (
            "payment-account", [:], "credit",
            #"{"cardNumber": "\#(pan)", "expiry": "08/39", "securityCode": "\#(cvv)", "cardholderName": "Ivan Petrov", "billingAddress": {"line1": "1 Main St", "city": "Austin", "state": "TX", "zipCode": "787010001", "country": "US"}}"#
        ),
        (
            "payment-account", [:], "credit",
            #"{"cardNumber": "\#(pan)0", "securityCode": "\#(cvv)\#(cvv)", "cardNumber": "\#(pan)"}"#
        ),
        ("payment-account", [:], "gift", #"{"cardNumber": \#(pan), "securityCode": \#(cvv), "cardNumbr": "\#(pan)"}"#),
        (
            "card-create", ["region": "EU"], nil,
            #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "\#(pin)"}"#
        ),
        (
            "card-create", ["region": "EU"], nil,
            #"{"programName": "P", "currency": "EUR", "cardPin": "\#(pin)x", "mobile": "\#(pan)"}"#
        ),
        ("card-create", ["region": "US"], nil, #"{"programName": "P", "currency": "USD", "cardPin": "\#(pin)"}"#),
        ("card-create", ["region": "EU"], nil, #"{"cardPin": "\#(pin)", "cardPin": "\#(pin)"}"#),
        ("card-create", ["region": "EU"], nil, #"{"cardPin": "\#(pin)", "currency": "EUR",,}"#),
        ("card-create", ["region": "EU"], nil, "{\"cardPin\": \"\(pin)\u{01}\"}"),
        ("card-update", [:], nil, #"{"status": "ACTIVE", "pin": "\#(pin)"}"#),
        ("card-update", [:], nil, #"{"status": "NOPE", "pin": \#(pin)}"#),
        ("card-details-response", [:], nil, #"{"pan": "\#(pan)", "cvv": "\#(cvv)", "expiry": "09/29"}"#),
    ]

    /// What an app's screen shows and says of a form model on the payload, its fields not being edited, and again
    /// after each secret is typed into the field it belongs to: each field's display, accessibility label and value
    /// and message, and what printing or dumping a field, the model or its request gives.
    @MainActor
    static func formModelOutputs(_ name: String, _ prepared: PreparedSchema, _ bytes: [UInt8]) -> [(String, String)] {
        guard let model = try? FormModel(prepared, draft: bytes) else { return [] }
        var found: [(String, String)] = []
        func printed(_ what: String, _ value: Any) {
            var dumped = ""
            dump(value, to: &dumped)
            found += [
                (what + " description", String(describing: value)),
                (what + " debugDescription", String(reflecting: value)),
                (what + " dump", dumped),
            ]
        }
        func note(_ stage: String) {
            for field in model.fields {
                let what = "\(name) form model \(stage) \(field.path)"
                found += [
                    (what + " display", field.display), (what + " accessibilityLabel", field.accessibilityLabel),
                    (what + " accessibilityValue", field.accessibilityValue), (what + " message", field.message ?? ""),
                ]
                printed(what, field)
            }
            printed("\(name) form model \(stage)", model)
            printed("\(name) form model \(stage) request", model.request())
            for violation in model.violations { printed("\(name) form model \(stage) violation", violation) }
        }
        note("loaded")
        for (pointer, secret) in [("/cardNumber", pan), ("/securityCode", cvv), ("/cardPin", pin), ("/pin", pin)] {
            guard let field = model.field(at: pointer) else { continue }
            field.isEditing = true
            field.text = secret
            field.isEditing = false
        }
        note("typed")
        return found
    }

    @Test func noOutputCarriesAPANPINOrCVVInClear() async throws {
        let validator = try Validator(source: .bundled)
        let gatewayKey = Curve25519.KeyAgreement.PrivateKey()
        let sealer = try HPKEFieldSealer(gatewayPublicKey: gatewayKey.publicKey.rawRepresentation, keyID: "gw")
        let opener = HPKEFieldOpener(privateKey: gatewayKey, keyID: "gw")
        let fingerprinter = try HMACFingerprinter(key: Data(repeating: 42, count: 32))
        let drafts = FileManager.default.temporaryDirectory.appendingPathComponent("dce-leak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: drafts) }
        let store = try DraftStore(directory: drafts)
        let captured = Captured()
        let redactor = Redactor(validator: validator)
        let logger = Logger(label: "leak") { _ in
            RedactingLogHandler(wrapping: CapturingHandler(captured: captured), redactor: redactor)
        }

        var outputs: [(what: String, text: String)] = []
        func record(_ what: String, _ value: Any) {
            outputs.append((what + " description", String(describing: value)))
            outputs.append((what + " debugDescription", String(reflecting: value)))
            var dumped = ""
            dump(value, to: &dumped)
            outputs.append((what + " dump", dumped))
        }
        var reports: [PayloadReport] = []
        var envelopes = 0

        for (offset, payload) in Self.payloads.enumerated() {
            let name = "payload \(offset) (\(payload.schema))"
            let bytes = Array(payload.json.utf8)
            for messages in try MessageCatalogue.bundledLanguages.map({ try MessageCatalogue.bundled(language: $0) }) {
                let prepared = try validator.prepare(
                    payload.schema, context: payload.context, tenderType: payload.tenderType, messages: messages
                )
                .fingerprinting(with: fingerprinter)
                let report = prepared.validate(json: bytes)
                var payloadReport = PayloadReport(file: name, report: report)
                // The masked copy, shown on its own and attached to the reports (junit, sarif) as --attach-masked does.
                if let copy = try? prepared.masked(json: bytes) {
                    payloadReport.masked = String(decoding: copy, as: UTF8.self)
                    outputs.append((name + " masked copy", String(decoding: copy, as: UTF8.self)))
                }
                reports.append(payloadReport)
                outputs.append(
                    (name + " report JSON", String(decoding: try JSONEncoder().encode(report), as: UTF8.self)))
                record(name + " report", report)
                for violation in report.errors { record(name + " violation", violation) }
                record(name + " prepared", prepared)
                // The payload as a form's draft: the session, every field's state, what would be sent, the example.
                if let form = try? FormSession(prepared, draft: bytes) {
                    record(name + " form", form)
                    for field in form.fields { record(name + " form field", field) }
                    outputs.append((name + " form request", String(decoding: form.request, as: UTF8.self)))
                    outputs.append((name + " form example", String(decoding: form.example, as: UTF8.self)))
                }
                outputs += await Self.formModelOutputs(name, prepared, bytes)
            }
            let prepared = try validator.prepare(
                payload.schema, context: payload.context, tenderType: payload.tenderType)
            let resolved = prepared.resolve(json: bytes)
            record(name + " resolved", resolved)
            if let document = try? JSONDocument(bytes: bytes) {
                record(name + " document", document)
            } else {
                do { _ = try JSONDocument(bytes: bytes) } catch { record(name + " read error", error) }
            }
            for pointer in ["/cardNumber", "/securityCode", "/cardPin", "/pin"] {
                if let verdict = try? prepared.checkInput(payload.json, at: pointer) {
                    record(name + " input verdict", verdict)
                }
                // The payload as a form's draft, with what is typed in place: the feedback, or the call's error.
                if let document = try? JSONDocument(bytes: bytes) {
                    for typed in [payload.json, String(payload.json.prefix(6))] {
                        do {
                            record(
                                name + " draft feedback",
                                try prepared.inputFeedback(typed, at: pointer, draft: document))
                        } catch {
                            record(name + " draft error", error)
                        }
                    }
                }
            }
            let built = try prepared.makeRequest(
                json: bytes, requestID: "req-\(offset)", sealer: sealer, createdAt: Self.createdAt)
            record(name + " built", built)
            if case .valid(let request) = built {
                envelopes += 1
                outputs.append((name + " envelope JSON", String(decoding: request.json, as: UTF8.self)))
                record(name + " envelope", request)
                let incoming = try IncomingRequest(json: request.json)
                record(name + " incoming", incoming)
                for field in request.encryptedFields { record(name + " encrypted field", field) }
                let (clear, fields) = try prepared.separatingEncryptedFields(json: try #require(resolved.payload))
                outputs.append((name + " clear part", String(decoding: clear, as: UTF8.self)))
                for field in fields { record(name + " sensitive field", field) }
                // The gateway: accepted (a request; a response schema is refused), and a tampered copy refused.
                do {
                    let accepted = try validator.accept(incoming, opener: opener)
                    record(name + " accepted report", accepted.report)
                } catch {
                    record(name + " gateway refusal", error)
                }
                let tampered = String(decoding: request.json, as: UTF8.self).replacingOccurrences(
                    of: "\"req-", with: "\"evil-")
                do {
                    _ = try validator.accept(IncomingRequest(json: Array(tampered.utf8)), opener: opener)
                } catch {
                    record(name + " gateway error", error)
                }
            }
            try store.save(
                json: (try? JSONDocument(bytes: bytes)) != nil ? bytes : Array("{}".utf8), as: "draft-\(offset)",
                schema: prepared)
            if let draft = try store.load("draft-\(offset)") { record(name + " draft", draft) }
            logger.info(
                "validating \(payload.json)",
                metadata: ["cardPin": "\(Self.pin)", "securityCode": "\(Self.cvv)", "body": "\(payload.json)"])
            logger.error("rejected: \(reports.last.map { "\($0)" } ?? "")")
        }
        #expect(envelopes == 4)  // the valid payloads: payment account, EU card, card update, card details

        // The gateway refusing PCI values sent in clear: its answers and its log lines.
        let gatewayLog = Captured()
        let gatewayKeys = Gateway.Keys.generate()
        let gateway = try Gateway(
            keys: gatewayKeys, version: "1",
            logger: Logger(label: "gateway") { _ in CapturingHandler(captured: gatewayLog) }, authentication: .none)
        let clearValues = [
            (
                "card-create", #"{"region":"EU"}"#, "null",
                #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "\#(Self.pin)"}"#
            ),
            (
                "payment-account", "{}", #""credit""#,
                #"{"cardNumber": "\#(Self.pan)", "expiry": "08/39", "securityCode": "\#(Self.cvv)", "cardholderName": "Ivan Petrov"}"#
            ),
            ("card-update", "{}", "null", #"{"status": "ACTIVE", "pin": "\#(Self.pin)"}"#),
        ]
        for (offset, (schema, context, tenderType, values)) in clearValues.enumerated() {
            let version = try #require(validator.schema(schema)).version
            let body =
                #"{"requestId":"clear-\#(offset)","createdAt":"\#(RFC3339.string(from: Date()))","schema":"\#(schema)","schemaVersion":"\#(version)","context":\#(context),"tenderType":\#(tenderType),"values":\#(values),"encryptedFields":[]}"#
            let answer = await gateway.handle(envelope: Array(body.utf8))
            #expect(answer.status == 422)
            #expect(try PDResponse(json: answer.body).errors.map(\.rule.rawValue) == ["notEncrypted"])
            outputs.append(("gateway answer to clear \(schema)", String(decoding: answer.body, as: UTF8.self)))
        }
        #expect(gatewayLog.lines.count == clearValues.count)
        for (index, line) in gatewayLog.lines.enumerated() { outputs.append(("gateway log line \(index)", line)) }
        outputs.append(("gateway metrics", gateway.metricsText))

        // The card-testing limit refusing the PAN from a second caller: its answer, log line and metrics.
        let limitedLog = Captured()
        var limits = Gateway.Limits()
        limits.cardVelocity = CardVelocity(maxCallersPerCardPerHour: 1)
        let limited = try Gateway(
            keys: gatewayKeys, version: "1", limits: limits,
            logger: Logger(label: "gateway") { _ in CapturingHandler(captured: limitedLog) }, authentication: .none)
        let accountSealer = try HPKEFieldSealer(
            gatewayPublicKey: try gatewayKeys.encryptionPublicKey, keyID: gatewayKeys.encryptionKeyID)
        for caller in ["first", "second"] {
            let built = try validator.prepare("payment-account", tenderType: "credit").makeRequest(
                json: Array(Self.payloads[0].json.utf8), requestID: "limit-\(caller)", sealer: accountSealer,
                createdAt: Date())
            guard case .valid(let request) = built else { throw CancellationError() }
            let answer = await limited.handle(
                envelope: request.json, caller: Caller(name: caller, scopes: ["requests:*"]))
            #expect(answer.status == (caller == "first" ? 200 : 429))
            outputs.append(
                ("gateway answer to \(caller) caller of one card", String(decoding: answer.body, as: UTF8.self)))
        }
        for (index, line) in limitedLog.lines.enumerated() {
            outputs.append(("limited gateway log line \(index)", line))
        }
        #expect(limitedLog.lines.contains { $0.contains("callersPerCard") })
        outputs.append(("limited gateway metrics", limited.metricsText))
        // What the same gateway serves over HTTP after those requests: health, readiness and metrics, searched as
        // every output is; its OpenAPI document and catalogue, hundreds of kilobytes of address patterns in which a
        // three- or four-digit secret is bound to appear by chance, are instead what a gateway that never saw a
        // request serves, byte for byte, and hold no card number.
        let served = try await Self.served(
            by: limited, paths: ["healthz", "readyz", "metrics", "openapi.json", "v1/schemas"])
        for (path, body) in served.prefix(3) { outputs.append(("limited gateway GET /\(path)", body)) }
        let pristine = try Gateway(keys: gatewayKeys, version: "1", limits: limits, authentication: .none)
        #expect(served[3].1 == String(decoding: pristine.openAPIDocument(), as: UTF8.self))
        #expect(served[4].1 == String(decoding: limited.catalogue.body, as: UTF8.self))
        for (path, body) in served.suffix(2) { #expect(!body.contains(Self.pan), "GET /\(path)") }

        for format in ReportFormat.allCases {
            var text = ""
            var writer = ReportWriter(format: format, schema: "mixed") { text += $0 }
            for report in reports { writer.add(report) }
            writer.finish()
            outputs.append(("\(format) report", text))
        }
        for file in try FileManager.default.contentsOfDirectory(at: drafts, includingPropertiesForKeys: nil) {
            outputs.append(("draft file \(file.lastPathComponent)", try String(contentsOf: file, encoding: .utf8)))
        }
        for (index, line) in captured.lines.enumerated() { outputs.append(("log line \(index)", line)) }
        let account = PaymentAccount(cardNumber: SensitiveString(Self.pan), securityCode: SensitiveString(Self.cvv))
        record("typed payment account", account)
        record("typed card request", CardRequest(programName: "P", currency: "EUR", cardPin: SensitiveString(Self.pin)))
        // Every generated model with a sensitive field, alone and inside another.
        record(
            "typed card details",
            CardSensitiveDetails(pan: SensitiveString(Self.pan), cvv: SensitiveString(Self.cvv), expiry: "12/30"))
        record("typed card update", CardUpdateRequest(pin: SensitiveString(Self.pin)))
        record(
            "typed customer profile",
            CustomerProfile(
                name: "N", profileAddress: Address(line1: "L", city: "C", zipCode: "Z", country: "US"),
                paymentAccounts: [account]))
        record("masked", Masking.mask(Self.pan))

        var dumpedTime = ""
        dump(Self.createdAt, to: &dumpedTime)
        for rendering in [RFC3339.string(from: Self.createdAt), String(reflecting: Self.createdAt), dumpedTime] {
            #expect(
                ![Self.pan, Self.pin, Self.cvv].contains(where: rendering.contains),
                "the fixed time itself holds a secret: \(rendering)")
        }
        #expect(outputs.count > 500)
        #expect(captured.lines.count == 2 * Self.payloads.count)
        for (what, output) in outputs {
            let text = Sealed.scrubbed(output)
            for secret in [Self.pan, Self.pin, Self.cvv] {
                #expect(!text.contains(secret), "\(what) contains \(secret.count)-digit secret: \(text.prefix(300))")
            }
        }
    }

    /// The bodies `gateway` serves at `paths`, over HTTP on a loopback port.
    static func served(by gateway: Gateway, paths: [String]) async throws -> [(String, String)] {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let router = Router()
        gateway.addRoutes(to: router)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [application], logger: Logger(label: "loopback")))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            var bodies: [(String, String)] = []
            for path in paths {
                let url = try #require(URL(string: "http://127.0.0.1:\(port)/\(path)"))
                let (data, response) = try await URLSession.shared.data(from: url)
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "GET /\(path)")
                bodies.append((path, String(decoding: data, as: UTF8.self)))
            }
            await group.triggerGracefulShutdown()
            try await tasks.next()
            return bodies
        }
    }
}
