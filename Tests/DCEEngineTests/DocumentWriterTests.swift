import Foundation
import Testing

@testable import DCEEngine

/// ``DocumentWriter`` makes the document a typed request's own ``DocumentWritable/write(to:)`` describes: the nodes it
/// makes as it writes are the ones the reader reads from its text, and a misuse is an error, never a document.
struct DocumentWriterTests {
    /// A request written member by member, with an optional left out, a nested object, a list and an encoded member.
    struct Written: ValidatableRequest {
        static let schemaID = "card-create"
        var programName = "SKRILL-VIRTUAL-MC-EEA"
        var currency = "EUR"
        var mobile: String? = nil
        var externalId: String? = "merchant \"7\" é"
        var termsAndConditionsAccepted = true
        var address = Address()
        var counts = [1, 2, 3]
        var amounts = [1.5, 2, -0.25]
        var decimal = Decimal(string: "12.340")!
        var when = Date(timeIntervalSinceReferenceDate: 10)

        struct Address: DocumentWritable, Encodable {
            var city = "Sofia"
            var lines = ["a", "b"]
            func write(to writer: inout DocumentWriter) {
                writer.beginObject()
                writer.member("city", city)
                writer.member("lines", lines)
                writer.endObject()
            }
        }

        func write(to writer: inout DocumentWriter) {
            writer.beginObject()
            writer.member("programName", programName)
            writer.member("currency", currency)
            writer.member("mobile", mobile)
            writer.member("externalId", externalId)
            writer.member("termsAndConditionsAccepted", termsAndConditionsAccepted)
            writer.member("address", address)
            writer.member("counts", counts)
            writer.member("amounts", amounts)
            writer.member("decimal", decimal)
            writer.key("when")
            writer.encode(when)
            writer.key("nothing")
            writer.null()
            writer.endObject()
        }
    }

    @Test func theNodesWrittenAreTheOnesTheTextReadsAs() throws {
        var writer = DocumentWriter()
        Written().write(to: &writer)
        let written = try writer.document()
        let read = try JSONDocument(bytes: Array(written.bytes))
        #expect(String(decoding: written.bytes, as: UTF8.self).contains(#""decimal":12.34"#))
        #expect(!String(decoding: written.bytes, as: UTF8.self).contains("mobile"))
        #expect(written.nodes.count == read.nodes.count)
        for (one, other) in zip(written.nodes, read.nodes) {
            #expect(
                one.kind == other.kind && one.flag == other.flag && one.start == other.start
                    && one.length == other.length && one.end == other.end)
        }
    }

    /// Every string that needs an escape is escaped wherever the character stands, and every plain one of every
    /// length is copied whole (both are scanned and copied by eight and four bytes at a time, overlapping), and reads
    /// back as it was.
    @Test func aStringIsEscapedWhereverItsSpecialCharacterStands() throws {
        for length in 0..<34 {
            for position in 0...length {
                for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", " "] {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                    var writer = DocumentWriter()
                    writer.beginObject()
                    writer.key(text)
                    writer.string(text)
                    writer.endObject()
                    let written = try writer.document()
                    let read = try JSONDocument(bytes: Array(written.bytes))
                    #expect(written.nodes.map(\.flag) == read.nodes.map(\.flag), "\(text.debugDescription)")
                    #expect(written.nodes.map(\.length) == read.nodes.map(\.length), "\(text.debugDescription)")
                    let decoded = try JSONDecoder().decode([String: String].self, from: Data(written.bytes))
                    #expect(decoded == [text: text])
                }
            }
        }
    }

    @Test func aWrittenRequestIsValidatedAsItsJSON() throws {
        var writer = DocumentWriter()
        Written().write(to: &writer)
        let text = Array(try writer.document().bytes)
        let typed = try Fixtures.validator.validate(Written())
        let json = try Fixtures.validator.validate(json: text, schema: "card-create")
        #expect(typed.errors.map(\.rule) == json.errors.map(\.rule))
        #expect(typed.errors.map(\.path) == json.errors.map(\.path))
        #expect(!typed.errors.isEmpty)
    }

    /// An integer is written in decimal as `JSONEncoder` writes it, from the smallest to the largest.
    @Test func everyIntegerIsWrittenAsJSONEncoderWritesIt() throws {
        let numbers = [Int.min, Int.min + 1, -1_000_000_007, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1 << 53, Int.max]
        var writer = DocumentWriter()
        numbers.write(to: &writer)
        let written = try writer.document()
        #expect(Array(written.bytes) == Array(try JSONEncoder().encode(numbers)))
        #expect(try JSONDecoder().decode([Int].self, from: Data(written.bytes)) == numbers)
    }

    /// Memory kept from one document (``Validator`` keeps it between typed requests) writes the next as new memory
    /// would: after a larger document, after a smaller one, and after a misuse that left one unfinished.
    @Test func memoryKeptFromADocumentWritesTheNextAsNewMemoryWould() throws {
        let long = String(repeating: "long line ", count: 400)
        let requests = [
            Written(),
            Written(mobile: long, externalId: nil, counts: Array(0..<300)),
            Written(mobile: "+359 888", address: .init(city: "Plovdiv", lines: [])),
            Written(),
        ]
        var storage = DocumentWriter.Storage()
        for (index, request) in requests.enumerated() {
            if index == 2 {
                var broken = DocumentWriter(reusing: storage)
                broken.beginObject()
                broken.key("half")
                #expect(throws: (any Error).self) { try broken.document() }
                storage = broken.storage(recycling: nil)
            }
            var fresh = DocumentWriter()
            request.write(to: &fresh)
            let expected = try fresh.document()
            var writer = DocumentWriter(reusing: storage)
            request.write(to: &writer)
            let written = try writer.document()
            #expect(written.bytes == expected.bytes, "request \(index)")
            #expect(written.nodes.count == expected.nodes.count, "request \(index)")
            for (one, other) in zip(written.nodes, expected.nodes) {
                #expect(
                    one.kind == other.kind && one.flag == other.flag && one.start == other.start
                        && one.length == other.length && one.end == other.end, "request \(index)")
            }
            storage = writer.storage(recycling: written)
        }
    }

    /// Each misuse of the writer, and what it is refused with.
    @Test(
        arguments: [
            (
                "a key twice",
                { @Sendable (writer: inout DocumentWriter) in
                    writer.beginObject()
                    writer.member("a", 1)
                    writer.member("a", 2)
                    writer.endObject()
                }
            ),
            ("a member outside an object", { @Sendable (writer: inout DocumentWriter) in writer.member("a", 1) }),
            (
                "two values at the top",
                { @Sendable (writer: inout DocumentWriter) in
                    writer.string("a")
                    writer.string("b")
                }
            ),
            (
                "a key with no value",
                { @Sendable (writer: inout DocumentWriter) in
                    writer.beginObject()
                    writer.key("a")
                    writer.endObject()
                }
            ),
            ("an unclosed object", { @Sendable (writer: inout DocumentWriter) in writer.beginObject() }),
            (
                "the wrong close",
                { @Sendable (writer: inout DocumentWriter) in
                    writer.beginArray()
                    writer.endObject()
                }
            ),
            ("nothing", { @Sendable (_: inout DocumentWriter) in }),
            (
                "a number that is not finite",
                { @Sendable (writer: inout DocumentWriter) in writer.number(Double.infinity) }
            ),
        ] as [(String, @Sendable (inout DocumentWriter) -> Void)])
    func aMisuseIsAnErrorNotADocument(_ what: String, _ misuse: @Sendable (inout DocumentWriter) -> Void) {
        var writer = DocumentWriter()
        misuse(&writer)
        #expect(throws: (any Error).self, "\(what)") { try writer.document() }
    }

    /// A hand-written request keeps being written through `Encodable`, whole.
    @Test func aRequestThatDoesNotWriteItselfIsEncoded() throws {
        struct Encoded: ValidatableRequest {
            static let schemaID = "card-create"
            var currency = "EUR"
        }
        var writer = DocumentWriter()
        Encoded().write(to: &writer)
        #expect(String(decoding: try writer.document().bytes, as: UTF8.self) == #"{"currency":"EUR"}"#)
    }
}
