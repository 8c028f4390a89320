import Foundation
import Testing

/// `dce-validate mask` and `--attach-masked`, from the outside.
struct MaskCommandTests {
    @Test func printsTheMaskedCopy() throws {
        let result = try CLI.run([
            "mask", "Examples/payment-account/valid-credit-american-express.json", "--schema", "payment-account",
        ])
        #expect(result.status == 0)
        #expect(
            result.out.hasPrefix(
                "{\n  \"cardNumber\": \"•••• •••••• •0005\",\n  \"expiry\": \"08/39\",\n  \"securityCode\": \"[withheld]\",\n"
            ))
        #expect(!result.out.contains("378282246310005") && !result.out.contains("1234"))
        let stdin = try CLI.run(
            ["mask", "-", "--schema", "card-details-response"],
            stdin: Data(#"{"pan": "5555555555554444", "cvv": "123"}"#.utf8))
        #expect(stdin.out == #"{"pan": "•••• •••• •••• 4444", "cvv": "[withheld]"}"#)
    }

    @Test func badInputExitsTwoAndPrintsNothing() throws {
        let malformed = try CLI.run(
            ["mask", "-", "--schema", "card-details-response"], stdin: Data("{\"pan\": \"5555555555554444\"".utf8))
        #expect(malformed.status == 2)
        #expect(malformed.out.isEmpty)
        #expect(malformed.err.contains("-:1:27: not well-formed JSON, nothing printed"), "\(malformed.err)")
        let missing = try CLI.run(["mask", "/nonexistent.json", "--schema", "card-details-response"])
        #expect(missing.status == 2 && missing.out.isEmpty && missing.err.contains("/nonexistent.json"))
        let schema = try CLI.run(["mask", "-", "--schema", "no-such-schema"], stdin: Data("{}".utf8))
        #expect(schema.status == 2 && schema.out.isEmpty)
    }

    /// A failing case in junit and sarif carries its masked copy; a passing one, or a run without the option, none.
    @Test func reportsAttachTheMaskedCopyOfAFailingCase() throws {
        let failing = "Examples/card-details-response/invalid-required-cvv.json"
        let junit = try CLI.run([
            failing, "Examples/card-details-response/valid-details.json", "--schema", "card-details-response",
            "--format", "junit", "--attach-masked",
        ])
        #expect(junit.status == 1)
        #expect(junit.out.contains("<system-out>masked payload:&#10;{&#10;  &quot;pan&quot;: &quot;•••• •••• •••• "))
        #expect(junit.out.components(separatedBy: "masked payload:").count == 2)  // the valid payload has none
        let sarif = try CLI.run([failing, "--schema", "card-details-response", "--format", "sarif", "--attach-masked"])
        let document = try JSONSerialization.jsonObject(with: Data(sarif.out.utf8)) as? [String: Any]
        let results = ((document?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        let copy = (results.first?["properties"] as? [String: Any])?["maskedPayload"] as? String
        #expect(copy?.contains("\"pan\": \"•••• •••• •••• ") == true, "\(sarif.out)")
        let plain = try CLI.run([failing, "--schema", "card-details-response", "--format", "junit"])
        #expect(!plain.out.contains("masked payload"))
    }
}
