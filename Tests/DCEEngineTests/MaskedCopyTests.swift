import DCEEngine
import Foundation
import Testing

/// `masked(json:)`: a copy safe to show, driven by the metadata, everything else byte for byte.
struct MaskedCopyTests {
    private func masked(_ json: String, schema: String = "payment-account", tenderType: String? = "credit") throws
        -> String
    {
        let validator = try Validator(source: .bundled, schemaIDs: [schema])
        let prepared = try validator.prepare(schema, tenderType: tenderType)
        return String(decoding: try prepared.masked(json: Array(json.utf8)), as: UTF8.self)
    }

    @Test func maskedWithheldAndTheRestAsItCame() throws {
        // cardNumber: maskingRequired (and encrypted): its brand's groups, last four shown; securityCode: withheld.
        let payload = """
            {
              "cardNumber" :"378282246310005",
              "expiry":   "08/39", "securityCode": "1234",
              "cardholderName": "Mar\\u00eda Ivanova",
              "billingAddress": {"line1": "1 Main St",   "zipCode": "205000003"}
            }
            """
        #expect(
            try masked(payload) == """
                {
                  "cardNumber" :"•••• •••••• •0005",
                  "expiry":   "08/39", "securityCode": "[withheld]",
                  "cardholderName": "Mar\\u00eda Ivanova",
                  "billingAddress": {"line1": "1 Main St",   "zipCode": "205000003"}
                }
                """)
        #expect(try masked(#"{"cardNumber": "4111-1111-1111-1111"}"#) == #"{"cardNumber": "•••• •••• •••• 1111"}"#)
    }

    @Test func whatCannotBeMaskedIsWithheldAndNullStays() throws {
        // A number, an object or a list where a sensitive string belongs, a duplicate key, null, and members the
        // schema does not know (their keys stay).
        #expect(
            try masked(
                #"{"cardNumber": 4111111111111111, "securityCode": [1, 2], "cardNumber": {"a": 1}, "expiry": null}"#)
                == #"{"cardNumber": "[withheld]", "securityCode": "[withheld]", "cardNumber": "[withheld]", "expiry": null}"#
        )
        #expect(
            try masked(#"{"cardNumbr": "4111111111111111", "note": {"pin": "8264"}, "gone": null}"#)
                == #"{"cardNumbr": "[withheld]", "note": "[withheld]", "gone": null}"#)
        // A card number in a field that should not hold one is masked as the log redactor masks it: in its
        // brand's groups, as every output shows a card number.
        #expect(
            try masked(#"{"nickname": "4111 1111 1111 1111", "cardholderName": 4111111111111111}"#)
                == #"{"nickname": "•••• •••• •••• 1111", "cardholderName": "•••• •••• •••• 1111"}"#)
    }

    /// Text that is not a card number shows its last four characters when it has at least 12, else nothing.
    @Test func otherMaskedTextShowsAtMostTheLastFour() throws {
        let validator = try Fixtures.validator([
            "s":
                #"{"id": "s", "fields": [{"key": "v", "dataType": "String", "maskingRequired": true}, {"key": "list", "dataType": "Array", "items": {"dataType": "String", "maskingRequired": true}}]}"#
        ])
        func copy(_ json: String) throws -> String {
            String(decoding: try validator.prepare("s").masked(json: Array(json.utf8)), as: UTF8.self)
        }
        #expect(try copy(#"{"v": "abc"}"#) == #"{"v": "•••"}"#)
        #expect(try copy(#"{"v": "abcdefgh"}"#) == #"{"v": "••••••••"}"#)
        #expect(try copy(#"{"v": "abcdefghijk"}"#) == #"{"v": "•••••••••••"}"#)
        #expect(try copy(#"{"v": "abcdefghijkl"}"#) == #"{"v": "••••••••ijkl"}"#)
        #expect(try copy(#"{"v": "ABCDEFGHIJKLMNOPQRSTUVWX"}"#) == #"{"v": "••••••••••••••••••••UVWX"}"#)
        #expect(try copy(#"{"v": "x\"yz\\w"}"#) == #"{"v": "••••••"}"#)
        #expect(try copy(#"{"list": ["12345678", null, "ab"]}"#) == #"{"list": ["••••••••", null, "••"]}"#)
        // 12 digits failing the Luhn check are no card number: the last four shown, not grouped.
        #expect(try copy(#"{"v": "123456789012"}"#) == #"{"v": "••••••••9012"}"#)
        #expect(try copy(#"{"v": "4111111111111111"}"#) == #"{"v": "•••• •••• •••• 1111"}"#)
    }

    @Test func malformedJSONGivesNoCopyAndSaysWhere() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["payment-account"])
        let error = try #require(throws: JSONReadError.self) {
            try validator.prepare("payment-account").masked(
                json: Array("{\n  \"cardNumber\": \"4111111111111111\",,}".utf8))
        }
        #expect(error.position.line == 2)
        #expect(!error.message.contains("4111"))
    }
}
