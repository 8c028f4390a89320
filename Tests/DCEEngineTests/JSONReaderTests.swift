import Foundation
import Testing

@testable import DCEEngine

struct JSONReaderTests {
    private func read(_ text: String, limits: JSONLimits = .default) throws(JSONReadError) -> JSONDocument {
        try JSONDocument(bytes: Array(text.utf8), limits: limits)
    }

    private func error(_ text: String, limits: JSONLimits = .default) -> JSONReadError? {
        do {
            _ = try read(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsNestedValuesWithTheirPositions() throws {
        let document = try read("{\n  \"a\": [1, \"é\", {\"b\": null}],\n  \"c\": true\n}")
        #expect(document.kind(of: document.root) == .object)
        let a = try #require(document.member("a", of: document.root))
        #expect(document.position(of: a) == SourcePosition(line: 2, column: 8, offset: 9))
        let elements = Array(document.elements(of: a))
        #expect(elements.count == 3)
        #expect(document.string(at: elements[1]) == "é")
        let c = try #require(document.member("c", of: document.root))
        #expect(document.boolean(at: c))
        #expect(document.position(of: c).line == 3)
    }

    @Test func columnsCountCodePoints() throws {
        let document = try read("{\"日本\": \"x\", \"k\": 1}")
        let k = try #require(document.member("k", of: document.root))
        #expect(document.position(of: k).column == 18)
    }

    @Test func theLineIndexLocatesEveryOffsetAsCountingFromTheStartDoes() {
        let texts = ["", "\n", "{}", "{\n  \"a\": 1\n}\n", "é\r\n€x\n\n😀\"b\"\n  ", "\n\n\nabc", "x\ny"]
        for text in texts {
            let bytes = Array(text.utf8)
            let lines = LineIndex(bytes)
            for offset in -1...(bytes.count + 1) {
                #expect(
                    lines.position(of: offset) == SourcePosition.locate(offset: offset, in: bytes),
                    "\(text.debugDescription) at \(offset)")
            }
        }
    }

    @Test func keepsNumbersExactlyAsWritten() throws {
        let document = try read("[4111111111111111111, 1.10, -0, 1e400]")
        let lexemes = document.elements(of: document.root).map { document.numberLexeme(at: $0) }
        #expect(lexemes == ["4111111111111111111", "1.10", "-0", "1e400"])
        #expect(DecimalNumber(lexeme: "4111111111111111111") != DecimalNumber(lexeme: "4111111111111111110"))
        #expect(DecimalNumber(lexeme: "1.0") == DecimalNumber(lexeme: "1"))
        #expect(DecimalNumber(lexeme: "10e-1") == DecimalNumber(lexeme: "1"))
        #expect(DecimalNumber(lexeme: "-2") < DecimalNumber(lexeme: "-1.5"))
        #expect(DecimalNumber(lexeme: "0.001") < DecimalNumber(lexeme: "0.01"))
        #expect(DecimalNumber(lexeme: "1e400").isIntegral)
        #expect(!DecimalNumber(lexeme: "1.5").isIntegral)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let document = try read(#"["a\"b\\c\/\n\u00e9\ud83d\ude00"]"#)
        let element = try #require(Array(document.elements(of: document.root)).first)
        #expect(document.string(at: element) == "a\"b\\c/\né😀")
        #expect(document.string(at: element, equals: "a\"b\\c/\né😀"))
    }

    /// Every byte a string's reading stops at (a quote, an escape, a control character, a byte of UTF-8 or one that
    /// is not), wherever it falls in the string, is read as such: a faster scan (eight bytes at a time was tried, and
    /// gained nothing on these payloads' short strings) must keep this.
    @Test func everyByteAStringStopsAtIsFoundWhereverItFalls() throws {
        for before in 0..<20 {
            let head = String(repeating: "a", count: before)
            for after in [0, 1, 7, 8, 9, 17] {
                let tail = String(repeating: "b", count: after)
                let escapes: [(raw: String, value: String)] = [
                    (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\u00e9"#, "é"), ("é", "é"), ("€", "€"),
                    ("😀", "😀"), ("~", "~"), ("", ""),
                ]
                for (raw, value) in escapes {
                    let document = try read("[\"" + head + raw + tail + "\"]")
                    let element = try #require(Array(document.elements(of: document.root)).first)
                    #expect(document.string(at: element) == head + value + tail, "\(before) \(raw) \(after)")
                }
                let refused: [(raw: [UInt8], code: JSONReadError.Code)] = [
                    ([0x01], .syntax), ([0x1F], .syntax), ([0xFF], .encoding), ([0xC3], .encoding), ([0x80], .encoding),
                ]
                for (raw, code) in refused {
                    let bytes = Array("[\"\(head)".utf8) + raw + Array("\(tail)\"]".utf8)
                    do {
                        _ = try JSONDocument(bytes: bytes)
                        Issue.record("\(raw) after \(before) bytes was read")
                    } catch {
                        #expect(error.code == code && error.position.offset == before + 2, "\(raw) after \(before)")
                    }
                }
                #expect(self.error("[\"" + head + tail)?.code == .syntax)
            }
        }
    }

    @Test func keepsDuplicateKeysForTheValidatorToReport() throws {
        let document = try read(#"{"a": 1, "a": 2}"#)
        #expect(document.count(of: document.root) == 2)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "trailing comma"),
        ("[1,]", "trailing comma"),
        ("{'a': 1}", "single quote"),
        ("[01]", "leading zeros"),
        ("[1.]", "decimal point"),
        ("[NaN]", "expected a value"),
        ("{\"a\" 1}", "expected ':'"),
        ("[1] [2]", "after the top-level value"),
        ("", "unexpected end of input"),
        ("\"abc", "unterminated string"),
        ("[\"a\tb\"]", "control character"),
        ("// comment\n{}", "no comments"),
    ])
    func rejectsMalformedInputWithAClearMessage(input: String, expected: String) {
        let failure = error(input)
        #expect(failure?.message.contains(expected) == true, "\(String(describing: failure))")
    }

    @Test func reportsLineAndColumnOfTheProblem() throws {
        let failure = try #require(error("{\n  \"currency\": \"EUR\",\n}"))
        #expect(failure.position.line == 3)
        #expect(failure.position.column == 1)
    }

    @Test func neverRepeatsInputInItsMessages() throws {
        for input in [
            "{\"cardPin\": 12a4}", "{\"cardPin\": \"98\u{1}76\"}", "[9876x]", "{\"pan\": 4111111111111111 5}",
        ] {
            let failure = try #require(error(input))
            #expect(
                !failure.message.contains("12a4") && !failure.message.contains("a4") && !failure.message.contains("98"))
            #expect(!failure.message.contains("9876") && !failure.message.contains("4111"))
        }
    }

    @Test func rejectsInvalidUTF8AndLoneSurrogates() {
        let invalid: [[UInt8]] = [
            [0x22, 0xC3, 0x28, 0x22],  // bad continuation
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],  // truncated
            Array("[\"\\ud800\"]".utf8), Array("[\"\\udc00\"]".utf8), Array("[\"\\ud800\\u0041\"]".utf8),
            [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],  // byte order mark
            [0x7B, 0x00, 0x7D, 0x00],  // UTF-16LE
        ]
        for bytes in invalid {
            #expect(throws: JSONReadError.self) { try JSONDocument(bytes: bytes) }
        }
    }

    @Test func enforcesItsLimits() {
        let limits = JSONLimits(maxDepth: 10, maxDocumentBytes: 1_000, maxStringBytes: 8)
        #expect(
            error(String(repeating: "[", count: 11) + String(repeating: "]", count: 11), limits: limits)?.code
                == .tooDeep)
        #expect(error(String(repeating: "[", count: 10) + String(repeating: "]", count: 10), limits: limits) == nil)
        #expect(error("[\"123456789\"]", limits: limits)?.code == .stringTooLong)
        #expect(error("[" + String(repeating: "1,", count: 600) + "1]", limits: limits)?.code == .tooLarge)
    }

    @Test func deepNestingNeverOverflowsTheStack() {
        let depth = 1_000_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(error(text)?.code == .tooDeep)
        let unclosed = String(repeating: "{\"a\":", count: 100_000)
        #expect(error(unclosed) != nil)
    }

    /// nst/JSONTestSuite (MIT, see Fixtures/JSONTestSuite/LICENSE): every `y_` file is accepted and every `n_`
    /// file rejected. The `i_` files are implementation-defined; ImplementationDefinedTests documents each.
    @Test func passesTheJSONTestSuiteParsingCorpus() throws {
        let directory = Fixtures.fixtures.appendingPathComponent("JSONTestSuite/test_parsing")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.count == 318)
        var wrong: [String] = []
        for name in names where name.hasPrefix("y_") || name.hasPrefix("n_") {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let accepted = (try? JSONDocument(bytes: bytes)) != nil
            if accepted != name.hasPrefix("y_") { wrong.append(name) }
        }
        #expect(wrong.isEmpty, "misjudged: \(wrong)")
    }
}
