import Foundation
import Testing

@testable import DCEEngine

/// What the reader does with each implementation-defined (`i_`) case of JSONTestSuite, as docs/security.md documents:
/// numbers of any size are accepted and kept exactly as written; every encoding irregularity is rejected; the
/// 500-deep nesting exceeds the depth limit.
struct ImplementationDefinedTests {
    static let expected: [String: JSONReadError.Code?] = [
        "i_number_double_huge_neg_exp.json": nil, "i_number_huge_exp.json": nil, "i_number_neg_int_huge_exp.json": nil,
        "i_number_pos_double_huge_exp.json": nil, "i_number_real_neg_overflow.json": nil,
        "i_number_real_pos_overflow.json": nil,
        "i_number_real_underflow.json": nil, "i_number_too_big_neg_int.json": nil, "i_number_too_big_pos_int.json": nil,
        "i_number_very_big_negative_int.json": nil,
        "i_object_key_lone_2nd_surrogate.json": .encoding, "i_string_1st_surrogate_but_2nd_missing.json": .encoding,
        "i_string_1st_valid_surrogate_2nd_invalid.json": .encoding, "i_string_UTF-16LE_with_BOM.json": .encoding,
        "i_string_UTF-8_invalid_sequence.json": .encoding, "i_string_UTF8_surrogate_U+D800.json": .encoding,
        "i_string_incomplete_surrogate_and_escape_valid.json": .encoding,
        "i_string_incomplete_surrogate_pair.json": .encoding,
        "i_string_incomplete_surrogates_escape_valid.json": .encoding,
        "i_string_invalid_lonely_surrogate.json": .encoding,
        "i_string_invalid_surrogate.json": .encoding, "i_string_invalid_utf-8.json": .encoding,
        "i_string_inverted_surrogates_U+1D11E.json": .encoding, "i_string_iso_latin_1.json": .encoding,
        "i_string_lone_second_surrogate.json": .encoding, "i_string_lone_utf8_continuation_byte.json": .encoding,
        "i_string_not_in_unicode_range.json": .encoding, "i_string_overlong_sequence_2_bytes.json": .encoding,
        "i_string_overlong_sequence_6_bytes.json": .encoding, "i_string_overlong_sequence_6_bytes_null.json": .encoding,
        "i_string_truncated-utf-8.json": .encoding, "i_string_utf16BE_no_BOM.json": .encoding,
        "i_string_utf16LE_no_BOM.json": .encoding, "i_structure_500_nested_arrays.json": .tooDeep,
        "i_structure_UTF-8_BOM_empty_object.json": .encoding,
    ]

    @Test func everyImplementationDefinedCaseBehavesAsDocumented() throws {
        let directory = Fixtures.fixtures.appendingPathComponent("JSONTestSuite/test_parsing")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("i_") }
            .sorted()
        #expect(Set(names) == Set(Self.expected.keys))
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            var code: JSONReadError.Code?
            do {
                let document = try JSONDocument(bytes: bytes)
                if name.hasPrefix("i_number") {
                    // Kept exactly: the lexeme is the file's number, not a rounded Double.
                    let number = try #require(Array(document.elements(of: document.root)).first)
                    let written = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
                        in: CharacterSet(charactersIn: "[] \n"))
                    #expect(document.numberLexeme(at: number) == written, "\(name)")
                }
            } catch let error as JSONReadError {
                code = error.code
            }
            #expect(code == Self.expected[name]!, "\(name): \(String(describing: code))")
        }
    }
}
