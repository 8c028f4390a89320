import DCEEngine
import Foundation
import Testing

/// The schema example in the README compiles and does what the README says.
struct ReadmeTests {
    @Test func theReadmeSchemaExampleCompilesAndValidates() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```json\n"))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let example = String(readme[start.upperBound..<end.lowerBound])
        let address = try String(
            contentsOf: Fixtures.schemas.appendingPathComponent("delivery-address.json"), encoding: .utf8)
        let validator = try Fixtures.validator(["billing-profile": example, "delivery-address": address])
        func check(_ json: String, _ context: [String: String], _ tenderType: String? = nil) throws -> [String] {
            try validator.validate(
                json: Array(json.utf8), schema: "billing-profile", context: context, tenderType: tenderType
            ).summary
        }
        let address1 = #""address": {"address1": "a", "city": "Sofia", "countryCode": "BG", "postalCode": "1000"}"#
        #expect(
            try check(
                #"{"cardNumber": "4111111111111111", "zipCode": "123456789", \#(address1)}"#, ["addressUse": "billing"])
                == [])
        #expect(
            try check(
                #"{"cardNumber": "4111111111111111", "zipCode": "12345", \#(address1)}"#, ["addressUse": "billing"])
                == ["regex@/zipCode"])
        #expect(
            try check(#"{"cardNumber": "4111111111111111", "zipCode": "12345"}"#, ["addressUse": "profile"]) == [
                "required@/address"
            ])
        #expect(
            try check(
                #"{"cardNumber": "6006491234567890", "zipCode": "12345", \#(address1)}"#, ["addressUse": "profile"],
                "gift") == [])
    }
}
