import DCEEngine
import DCEForms
import DCEModels
import DCEPattern
import Foundation
import Testing

/// The engine shared by many tasks at once: what ThreadSanitizer runs over the engine in `scripts/test` (the engine's
/// other suites run under AddressSanitizer). Each test has many tasks ask the same objects at once first, while what
/// is built on first use (what the validator prepared for a request type, a thread's evaluation buffers and match
/// data; a country's address patterns, unless another suite of the process got there first) is being built, then asks
/// one task alone, and holds every task's answer to that one.
struct ManyTasksTests {
    /// Everything an app asks of a payload, as one value to compare.
    struct Answers: Equatable, Sendable {
        var errors: [Violation]
        var messages: [String: [String]]
        var isValid: Bool
        var isValidParsed: Bool?
        var masked: [UInt8]?
        var typed: [String: InputVerdict]
        var form: FormDescription?
        var typedRequest: [Violation]?
    }

    /// The request models whose schemas examples show: validated as typed requests, through the validator's own cache
    /// of what it prepared for each type, context and tender type.
    static let models: [any (ValidatableRequest & Decodable).Type] = [
        CardRequest.self, DeliveryAddress.self, ProvisionVirtualCardInput.self, VirtualCard.self,
        ProvisionalVirtualCard.self, Address.self, PaymentAccount.self, CustomerProfile.self,
    ]

    /// Validates a typed request with a validator and gives its errors.
    typealias TypedCheck = @Sendable (Validator) throws -> [Violation]

    /// The example decoded as a `type`, validated under its context and tender type; nil when it does not decode.
    static func typedCheck<Request: ValidatableRequest & Decodable>(
        _ type: Request.Type, _ example: Example
    ) -> TypedCheck? {
        guard let request = try? JSONDecoder().decode(type, from: Data(example.payload)) else { return nil }
        return { validator in
            Array(try validator.validate(request, context: example.context, tenderType: example.tenderType).errors)
        }
    }

    /// Every example with what the manifest says it is validated with (updates, merge patches onto a stored record,
    /// aside), and the pointer and text of each of its strings.
    struct Example: Sendable {
        var file: String
        var schema: String
        var context: [String: String]
        var tenderType: String?
        var payload: [UInt8]
        var strings: [(pointer: String, text: String)]
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let examples: [Example] = {
        let folder = repository.appendingPathComponent("Examples")
        let manifest = try! JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
        return ((manifest as! [String: Any])["examples"] as! [[String: Any]]).compactMap { entry in
            guard entry["original"] == nil else { return nil }
            let file = entry["file"] as! String
            let payload = try! [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            let value = try? JSONSerialization.jsonObject(with: Data(payload), options: .fragmentsAllowed)
            return Example(
                file: file, schema: entry["schema"] as! String, context: entry["context"] as? [String: String] ?? [:],
                tenderType: entry["tenderType"] as? String, payload: payload,
                strings: value.map { strings(of: $0) } ?? [])
        }
    }()

    static func strings(of value: Any, at pointer: String = "") -> [(pointer: String, text: String)] {
        switch value {
        case let text as String: return [(pointer, text)]
        case let members as [String: Any]:
            return members.sorted { $0.key < $1.key }.flatMap { key, member in
                strings(
                    of: member,
                    at: pointer + "/"
                        + key.replacingOccurrences(of: "~", with: "~0")
                        .replacingOccurrences(of: "/", with: "~1"))
            }
        case let items as [Any]: return items.enumerated().flatMap { strings(of: $1, at: pointer + "/\($0)") }
        default: return []
        }
    }

    /// What one task gets for one example from `validator`: its report (from the validator, and from a schema prepared
    /// for each bundled language), both verdicts, the masked copy, each string typed as it stands, the form the schema
    /// describes, and the report of its typed request (through the validator's cache of what it prepared for a type).
    static func answers(_ example: Example, _ validator: Validator) throws -> Answers {
        let report = try validator.validate(
            json: Data(example.payload), schema: example.schema, context: example.context,
            tenderType: example.tenderType)
        var messages: [String: [String]] = [:]
        for language in MessageCatalogue.bundledLanguages {
            let prepared = try validator.prepare(
                example.schema, context: example.context, tenderType: example.tenderType,
                messages: MessageCatalogue.bundled(language: language))
            messages[language] = prepared.validate(json: example.payload).errors.map(\.message)
        }
        let prepared = try validator.prepare(example.schema, context: example.context, tenderType: example.tenderType)
        var typed: [String: InputVerdict] = [:]
        for (pointer, text) in example.strings {
            typed[pointer] = try? prepared.checkInput(text, at: pointer)
        }
        let model = models.first { $0.schemaID == example.schema }
        let typedRequest = try model.flatMap { typedCheck($0, example) }.map { try $0(validator) }
        return Answers(
            errors: Array(report.errors), messages: messages, isValid: prepared.isValid(json: example.payload),
            isValidParsed: (try? JSONDocument(bytes: example.payload)).map { prepared.isValid($0) },
            masked: try? prepared.masked(json: example.payload), typed: typed,
            form: try? validator.schema(example.schema)?.describeForm(
                context: example.context, tenderType: example.tenderType),
            typedRequest: typedRequest)
    }

    /// Typed requests from many tasks at once, each request under its example's context and tender type, through one
    /// validator none of them has used: it keeps what it prepares for each request type, context and tender type.
    @Test func typedRequestsFromManyTasksAtOnceGetWhatOneTaskGets() async throws {
        let checks = Self.examples.compactMap { example in
            Self.models.first { $0.schemaID == example.schema }.flatMap { Self.typedCheck($0, example) }
        }
        #expect(checks.count > 10)
        let shared = try Validator()
        let found = try await withThrowingTaskGroup(of: (Int, [[Violation]]).self) { group in
            for task in 0..<16 {
                group.addTask {
                    (task, try (0..<checks.count * 4).map { step in try checks[(task + step) % checks.count](shared) })
                }
            }
            return try await group.reduce(into: [(Int, [[Violation]])]()) { $0.append($1) }
        }
        let alone = try Validator()
        let expected = try checks.map { try $0(alone) }
        #expect(found.count == 16 && expected.contains { !$0.isEmpty })
        for (task, answers) in found {
            let differing = answers.indices.filter { answers[$0] != expected[(task + $0) % checks.count] }
            #expect(differing.isEmpty, "task \(task): \(differing.count) requests differ from what one task alone gets")
        }
    }

    /// Many tasks validating every example at once through one validator none of them has used, each in its own
    /// order, get what one task alone gets.
    @Test func everyExampleGivesManyTasksAtOnceWhatOneTaskGets() async throws {
        let examples = Self.examples
        #expect(examples.count > 100)
        let shared = try Validator()
        // Task t starts t sixths of the way along the examples; odd tasks go backwards.
        let tasks = 6
        func order(_ task: Int) -> [Int] {
            let start = examples.count * task / tasks
            let rotated = Array(start..<examples.count) + Array(0..<start)
            return task.isMultiple(of: 2) ? rotated : rotated.reversed()
        }
        let found = try await withThrowingTaskGroup(of: (Int, [Int: Answers]).self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var answers: [Int: Answers] = [:]
                    for index in order(task) { answers[index] = try Self.answers(examples[index], shared) }
                    return (task, answers)
                }
            }
            return try await group.reduce(into: [(Int, [Int: Answers])]()) { $0.append($1) }
        }
        let alone = try Validator()
        let expected = try examples.map { try Self.answers($0, alone) }
        #expect(found.count == tasks)
        for (task, answers) in found {
            for (index, example) in examples.enumerated() where answers[index] != expected[index] {
                Issue.record("task \(task): \(example.file) differs from what one task alone gets")
            }
        }
        // The examples take the paths that matter: valid and invalid, typed strings, masked copies.
        #expect(expected.contains { !$0.isValid } && expected.contains { $0.isValid })
        #expect(expected.contains { !$0.typed.isEmpty } && expected.contains { $0.masked != nil })
        #expect(expected.contains { $0.messages["de"] != $0.messages["en"] })
        #expect(expected.filter { $0.typedRequest != nil }.count > 10)
    }
}
