import DCEEngine
import DCEForms
import DCELogging
import Foundation
import Logging
import Testing

/// `storageRestricted` enforced: drafts on disk and log lines carry no restricted value.
struct DraftsAndLogsTests {
    static let pan = "4929123456781236"

    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dce-drafts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aDraftKeepsWhatMayBeStoredAndListsWhatMustBeAskedAgain() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DraftStore(directory: directory.appendingPathComponent("drafts"))
        let prepared = try Validator(source: .bundled, schemaIDs: ["payment-account"]).prepare(
            "payment-account", tenderType: "credit")
        let form =
            #"{"cardNumber": "\#(Self.pan)", "securityCode": "739", "nickname": "Travel", "cardNumbr": "\#(Self.pan)", "billingAddress": {"city": "Berlin"}}"#
        let saved = try store.save(json: Array(form.utf8), as: "new-card", schema: prepared)
        #expect(saved.omitted == ["/cardNumber", "/securityCode"])
        let file = directory.appendingPathComponent("drafts/new-card.draft.json")
        let bytes = try String(contentsOf: file, encoding: .utf8)
        #expect(!bytes.contains(Self.pan) && !bytes.contains("739"))
        #expect(!bytes.contains("cardNumbr"))  // a member the schema does not know could be anything: not stored
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let loaded = try #require(try store.load("new-card"))
        #expect(
            String(decoding: loaded.values, as: UTF8.self)
                == #"{"nickname":"Travel","billingAddress":{"city":"Berlin"}}"#)
        #expect(loaded.omitted == ["/cardNumber", "/securityCode"])
        #expect(loaded.schema == "payment-account")
        try store.delete("new-card")
        #expect(try store.load("new-card") == nil)
        #expect(throws: ValidatorError.self) {
            try store.save(json: Array("{}".utf8), as: "../escape", schema: prepared)
        }
        #expect(throws: ValidatorError.self) { try store.save(json: Array("{".utf8), as: "broken", schema: prepared) }
    }

    @Test func theRedactorMasksKeyedValuesAndCardNumbers() throws {
        let redactor = Redactor(validator: try Validator(source: .bundled), extraKeys: ["cvv2"])
        #expect(
            redactor.isSensitive(key: "cardPin") && redactor.isSensitive(key: "securityCode")
                && redactor.isSensitive(key: "pan"))
        #expect(!redactor.isSensitive(key: "nickname"))
        #expect(
            redactor.redact("retrying cardPin=8264 for 4111 1111 1111 1111")
                == "retrying cardPin=•••• for •••• •••• •••• 1111")
        #expect(
            redactor.redact(#"{"securityCode": "739", "cvv2":12, "nickname":"Trip"}"#)
                == #"{"securityCode": "•••", "cvv2":••, "nickname":"Trip"}"#)
        #expect(redactor.redact("order 1234567890123 total 42") == "order 1234567890123 total 42")  // not a Luhn number
        #expect(redactor.redact("pan: \(Self.pan).") == "pan: ••••••••••••••••.")
        #expect(redactor.redact("card \(Self.pan) declined") == "card •••• •••• •••• 1236 declined")
        // A card number run together with other digits: the longest stretch of groups that is one is masked.
        #expect(
            redactor.redact("card 4111 1111 1111 1111 2029-08-01 retried")
                == "card •••• •••• •••• 1111 2029-08-01 retried")
        #expect(redactor.redact("ids 4111111111111111 1") == "ids •••• •••• •••• 1111 1")
        // By the card brand data: UnionPay has no check digit, and no Visa number has 17 digits.
        #expect(redactor.redact("up 6200000000000006") == "up •••• •••• •••• 0006")
        #expect(redactor.redact("n 41111111111111113") == "n 41111111111111113")
        #expect(Redactor.containsCardNumber("paid with 3782-822463-10005") && !Redactor.containsCardNumber("n 42"))
    }

    @Test func logLinesThroughSwiftLogCarryNoRestrictedValue() throws {
        let captured = Captured()
        let redactor = Redactor(validator: try Validator(source: .bundled))
        var logger = Logger(label: "dce") { _ in
            RedactingLogHandler(wrapping: CapturingHandler(captured: captured), redactor: redactor)
        }
        logger[metadataKey: "cardPin"] = "8264"
        logger.info(
            "payload \(#"{"cardNumber":"\#(Self.pan)"}"#) rejected",
            metadata: ["securityCode": "739", "note": "card \(Self.pan)", "nested": ["cvv": "739", "other": "ok"]])
        let lines = captured.lines
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        for secret in ["8264", Self.pan, "739", "12345678"] { #expect(!line.contains(secret), "\(secret) in \(line)") }
        #expect(line.contains("other=ok"))
        #expect(line.contains("•••• •••• •••• 1236"))
    }
}

/// Lines written by ``CapturingHandler``.
final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }
}

/// Writes each event as one line of text: message and sorted metadata, flattened.
struct CapturingHandler: LogHandler {
    let captured: Captured
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        all.merge(event.metadata ?? [:]) { $1 }
        captured.append(
            "\(event.message) "
                + all.sorted { $0.key < $1.key }.map { "\($0.key)=\(flatten($0.value))" }.joined(separator: " "))
    }

    private func flatten(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): values.map(flatten).joined(separator: ",")
        case .dictionary(let entries):
            entries.sorted { $0.key < $1.key }.map { "\($0.key)=\(flatten($0.value))" }.joined(separator: " ")
        }
    }
}
