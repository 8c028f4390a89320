import DCECompatibility
import DCEModels
import Foundation
import Testing

@testable import DCEEngine

/// Typed requests reach the engine through ``RequestEncoder``, not `JSONEncoder`: the engine must read the same
/// request either way. Every example of a schema with a typed model is decoded into it and validated both ways, and
/// the reports are the same byte for byte; values that `JSONEncoder` treats specially are written as it writes them.
struct RequestEncoderTests {
    /// Validates an example decoded into `Model` both ways; `nil` when the example does not decode into the model.
    static func reports<Model: ValidatableRequest & Codable>(
        _ model: Model.Type, payload: [UInt8], prepared: PreparedSchema
    ) throws -> (ours: ValidationReport, foundation: ValidationReport)? {
        guard let request = try? JSONDecoder().decode(Model.self, from: Data(payload)) else { return nil }
        let ours = prepared.validate(try RequestEncoder.document(request), positions: false)
        let foundation = prepared.validate(
            try JSONDocument(bytes: [UInt8](try JSONEncoder().encode(request))), positions: false)
        return (ours, foundation)
    }

    /// The typed models, by the schema each names.
    static let models:
        [String: @Sendable ([UInt8], PreparedSchema) throws -> (ours: ValidationReport, foundation: ValidationReport)?] =
            [
                CardRequest.schemaID: { try reports(CardRequest.self, payload: $0, prepared: $1) },
                DeliveryAddress.schemaID: { try reports(DeliveryAddress.self, payload: $0, prepared: $1) },
                CardTokenizationRequest.schemaID: {
                    try reports(CardTokenizationRequest.self, payload: $0, prepared: $1)
                },
                PaymentAccount.schemaID: { try reports(PaymentAccount.self, payload: $0, prepared: $1) },
                CustomerProfile.schemaID: { try reports(CustomerProfile.self, payload: $0, prepared: $1) },
                GiftCardsResponse.schemaID: { try reports(GiftCardsResponse.self, payload: $0, prepared: $1) },
                CardArtsResponse.schemaID: { try reports(CardArtsResponse.self, payload: $0, prepared: $1) },
            ]

    @Test func everyTypedExampleIsReadAsJSONEncoderWritesIt() throws {
        var compared = 0
        for (schema, examples) in SchemaComparisonTests.examples {
            for example in examples {
                let prepared = try Fixtures.validator.prepare(
                    schema, context: example.context, tenderType: example.tenderType)
                guard let model = Self.models[schema] else { continue }
                let pair = try model(example.payload, prepared)
                guard let pair else { continue }
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                #expect(try encoder.encode(pair.ours) == encoder.encode(pair.foundation), "\(example.name)")
                compared += 1
            }
        }
        #expect(compared >= 35, "\(compared) examples decoded into a typed model")
    }

    struct Special: Encodable {
        var text = "quote \" backslash \\ newline \n tab \t bell \u{7} é €"
        var when = Date(timeIntervalSinceReferenceDate: 123_456.5)
        var bytes = Data([0, 1, 2, 250])
        var link = URL(string: "https://example.com/a?b=c")!
        var amount = Decimal(string: "12.50")!
        var whole = 10.0
        var fraction = -0.25
        var small: Int8 = -8
        var big = UInt64.max
        var list: [Int?] = [1, nil, 3]
        var nested = ["b": [true], "a": [false]]
        var nothing: String? = nil
    }

    @Test func valuesJSONEncoderTreatsSpeciallyAreWrittenAsItWritesThem() throws {
        let ours = try RequestEncoder.document(Special())
        let foundation = try JSONDocument(bytes: [UInt8](try JSONEncoder().encode(Special())))
        let (mine, theirs) = (
            SchemaValue(document: ours, at: ours.root), SchemaValue(document: foundation, at: foundation.root)
        )
        guard case .object(let members) = mine, case .object(let expected) = theirs else {
            Issue.record("not objects: \(mine) \(theirs)")
            return
        }
        // JSONEncoder's member order is its dictionary's, different from run to run: compared by name.
        let sorted = { (members: [SchemaValue.Member]) in members.sorted { $0.key < $1.key } }
        #expect(sorted(members).map(\.key) == sorted(expected).map(\.key))
        for (member, other) in zip(sorted(members), sorted(expected)) {
            #expect(member.value.sortingMembers == other.value.sortingMembers, "\(member.key)")
        }
    }

    /// Encodings the fast path cannot follow as it writes, each written again as nodes: a key encoded twice (the
    /// last value kept), a nested container filled after a later member, a super encoder, and one that asks for its
    /// container twice.
    struct Unusual: Encodable {
        enum Keys: String, CodingKey { case a, b, c, d }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            try outer.encode("first", forKey: .a)
            var nested = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
            try outer.encode(1, forKey: .c)
            try nested.encode(true, forKey: .a)
            try outer.encode("last", forKey: .a)
            var again = encoder.container(keyedBy: Keys.self)
            try again.encode([1, 2], forKey: .d)
            try Special().encode(to: outer.superEncoder())
        }
    }

    struct Orderly: Encodable {
        enum Keys: String, CodingKey { case list, nested, single }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var list = outer.nestedUnkeyedContainer(forKey: .list)
            try list.encode("x")
            var item = list.nestedContainer(keyedBy: Keys.self)
            try item.encode(Special(), forKey: .nested)
            try list.encodeNil()
            try outer.encode(Special(), forKey: .single)
        }
    }

    /// Swallows what the fast path throws when it gives up, and goes on: the text must still not be used.
    struct Swallowing: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("first", forKey: .a)
            try? container.encode("second", forKey: .a)
            try container.encode(2, forKey: .b)
        }
    }

    @Test(arguments: [0, 1, 2])
    func encodingsOfEveryShapeAreReadAsJSONEncoderWritesThem(which: Int) throws {
        let values: [any Encodable] = [Unusual(), Orderly(), Swallowing()]
        let mine = try RequestEncoder.document(values[which])
        let theirs = [UInt8](try JSONEncoder().encode(values[which]))
        let foundation = try JSONDocument(bytes: theirs)
        #expect(
            SchemaValue(document: mine, at: mine.root).sortingMembers
                == SchemaValue(document: foundation, at: foundation.root).sortingMembers,
            "\(String(decoding: mine.bytes, as: UTF8.self))")
    }

    struct NotFinite: Encodable { var value = Double.nan }

    @Test func aValueJSONCannotHoldIsAnEncodingErrorAsThere() {
        #expect(throws: EncodingError.self) { try RequestEncoder.document(NotFinite()) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(NotFinite()) }
    }
}

/// A typed request's document is made as its text is written, not read back: its nodes must be exactly what the
/// reader reads from that text, and text the reader would refuse (too deep, too long, not JSON) must be refused as
/// the reader refuses it.
struct RequestDocumentTests {
    /// A document's nodes, field by field.
    static func layout(_ document: JSONDocument) -> [String] {
        document.nodes.map { "\($0.kind) \($0.flag) \($0.start) \($0.length) \($0.end)" }
    }

    /// Whether the document's nodes are those the reader reads from its text.
    static func expectReadAlike(_ document: JSONDocument, _ name: String) throws {
        let read = try JSONDocument(bytes: Array(document.bytes))
        #expect(layout(document) == layout(read), "\(name): \(String(decoding: document.bytes, as: UTF8.self))")
    }

    @Test func everyTypedExampleIsMadeAsTheReaderReadsIt() throws {
        let models: [String: ([UInt8]) throws -> JSONDocument?] = [
            CardRequest.schemaID: { try Self.made(CardRequest.self, $0) },
            DeliveryAddress.schemaID: { try Self.made(DeliveryAddress.self, $0) },
            CardTokenizationRequest.schemaID: { try Self.made(CardTokenizationRequest.self, $0) },
            PaymentAccount.schemaID: { try Self.made(PaymentAccount.self, $0) },
            CustomerProfile.schemaID: { try Self.made(CustomerProfile.self, $0) },
            GiftCardsResponse.schemaID: { try Self.made(GiftCardsResponse.self, $0) },
            CardArtsResponse.schemaID: { try Self.made(CardArtsResponse.self, $0) },
        ]
        var compared = 0
        for (schema, examples) in SchemaComparisonTests.examples {
            guard let model = models[schema] else { continue }
            for example in examples {
                guard let document = try model(example.payload) else { continue }
                try Self.expectReadAlike(document, example.name)
                compared += 1
            }
        }
        #expect(compared >= 35, "\(compared) examples decoded into a typed model")
    }

    static func made<Model: Codable>(_ model: Model.Type, _ payload: [UInt8]) throws -> JSONDocument? {
        guard let request = try? JSONDecoder().decode(Model.self, from: Data(payload)) else { return nil }
        return try RequestEncoder.document(request)
    }

    @Test func valuesOfEveryKindAreMadeAsTheReaderReadsThem() throws {
        try Self.expectReadAlike(try RequestEncoder.document(RequestEncoderTests.Special()), "special")
        try Self.expectReadAlike(try RequestEncoder.document(RequestEncoderTests.Orderly()), "orderly")
        try Self.expectReadAlike(try RequestEncoder.document(["": [String: Int]()]), "empty object")
        try Self.expectReadAlike(try RequestEncoder.document([[Int]](repeating: [], count: 3)), "empty arrays")
        try Self.expectReadAlike(try RequestEncoder.document("top-level \u{1} string"), "a string alone")
        try Self.expectReadAlike(try RequestEncoder.document([1.5e300, -0.0, 3]), "numbers")
    }

    /// Nested one level per step.
    struct Nest: Encodable {
        var inner: [Nest] = []

        init(depth: Int) {
            if depth > 1 { inner = [Nest(depth: depth - 1)] }
        }
    }

    @Test func aRequestPastTheReadersLimitsIsRefusedAsTheReaderRefusesIt() throws {
        // 64 levels of Nest are 128 containers (an object and its list): the reader's limit, still made.
        _ = try RequestEncoder.document(Nest(depth: 64))
        let deep = Nest(depth: 65)
        #expect(throws: JSONReadError.self) { try RequestEncoder.document(deep) }
        let long = String(repeating: "a", count: JSONLimits.default.maxStringBytes + 1)
        #expect(throws: JSONReadError.self) { try RequestEncoder.document(["text": long]) }
        // A Decimal that is not a number is not JSON.
        #expect(throws: JSONReadError.self) { try RequestEncoder.document(["amount": Decimal.nan]) }
    }

    /// Arrays nested `depth` deep around a value that asks for no container (written `{}`, one level more).
    struct Deep: Encodable {
        let depth: Int
        func encode(to encoder: any Encoder) throws {
            guard depth > 0 else { return }
            var list = encoder.unkeyedContainer()
            try list.encode(Deep(depth: depth - 1))
        }
    }

    @Test func anObjectWrittenForAValueThatAskedForNoneCountsTowardsTheDepth() throws {
        _ = try RequestEncoder.document(Deep(depth: 127))
        #expect(throws: JSONReadError.self) { try RequestEncoder.document(Deep(depth: 128)) }
    }

    /// A member whose value throws after its name was written, the error swallowed, and a member after it.
    struct Swallowed: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try? container.encode(Date(timeIntervalSinceReferenceDate: .nan), forKey: .a)
            try container.encode(2, forKey: .b)
        }
    }

    @Test func aMemberWhoseValueThrewLeavesNoNameWithoutAValue() throws {
        let document = try RequestEncoder.document(Swallowed())
        try Self.expectReadAlike(document, "swallowed")
        #expect(document.count(of: document.root) == 1)
        #expect(document.member("b", of: document.root) != nil)
    }

    /// Two names Swift takes for one: "é" composed, and "e" with a combining accent.
    struct Equivalent: Encodable {
        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: Key(stringValue: "caf\u{E9}"))
            try container.encode(2, forKey: Key(stringValue: "cafe\u{301}"))
        }
    }

    @Test func namesSwiftTakesForOneAreOneMemberAsJSONEncoderWritesThem() throws {
        let document = try RequestEncoder.document(Equivalent())
        try Self.expectReadAlike(document, "equivalent")
        let foundation = try JSONDocument(bytes: [UInt8](try JSONEncoder().encode(Equivalent())))
        #expect(document.count(of: document.root) == foundation.count(of: foundation.root))
        #expect(document.count(of: document.root) == 1)
    }

    @Test func numbersAreToldAsTheReaderTellsThem() throws {
        let lexemes = [
            "0", "-0", "12", "-12.5", "1e5", "1E+5", "2.5e-3", "01", "-", "1.", ".5", "1e", "1e+", "+1", "0x1", "NaN",
            "--1", "1.2.3", "00", "-01", "9007199254740993",
        ]
        for lexeme in lexemes {
            let text = Array(lexeme.utf8)
            let read = (try? JSONDocument(bytes: text)).map { $0.kind(of: $0.root) == .number } ?? false
            #expect(RequestStream.State.isNumber(text) == read, "\(lexeme)")
        }
    }
}

extension SchemaValue {
    /// The value with every object's members sorted by name.
    fileprivate var sortingMembers: SchemaValue {
        switch self {
        case .object(let members):
            .object(members.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: $0.value.sortingMembers) })
        case .array(let items): .array(items.map(\.sortingMembers))
        default: self
        }
    }
}
