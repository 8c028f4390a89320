import DCEEngine
import Foundation
import Testing

/// What is sent: defaults applied before validation, fields ignored for provisioning left out.
struct ResolveTests {
    private let account = #"{"cardNumber": "4111111111111111", "expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov", "billingAddress": {"line1": "1 Main St", "city": "Austin", "zipCode": "787010001", "country": "US"}}"#

    private func resolve(_ json: String, context: [String: String] = [:]) throws -> ResolvedRequest {
        try Fixtures.validator.prepare("payment-account", context: context, tenderType: "credit").resolve(json: Array(json.utf8))
    }

    private func sent(_ request: ResolvedRequest) throws -> [String: Any] {
        let payload = try #require(request.payload)
        return try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    }

    @Test func anAbsentFieldGetsItsDefaultBeforeValidationAndInWhatIsSent() throws {
        let request = try resolve(account)
        #expect(request.report.valid)
        #expect(try sent(request)["nickname"] as? String == "My card")
        // A value the app gives wins over the default; numbers and nesting come through unchanged.
        let given = try resolve(account.replacingOccurrences(of: #""cardholderName""#, with: #""nickname": "Travel", "cardholderName""#))
        #expect(try sent(given)["nickname"] as? String == "Travel")
    }

    @Test func provisioningNeitherValidatesNorSendsIgnoredFields() throws {
        let longNickname = account.replacingOccurrences(of: #""cardholderName""#, with: #""nickname": "\#(String(repeating: "n", count: 40))", "cardholderName""#)
        #expect(try !resolve(longNickname).report.valid)  // an ordinary request checks the nickname
        let provisioning = try resolve(longNickname, context: ["operation": "provision"])
        #expect(provisioning.report.valid)
        #expect(try sent(provisioning)["nickname"] == nil)
        #expect(try sent(try resolve(account, context: ["operation": "provision"]))["nickname"] == nil)  // no default either
    }

    @Test func anInvalidRequestHasNoPayloadToSend() throws {
        let request = try resolve(account.replacingOccurrences(of: "08/39", with: "13/39"))
        #expect(!request.report.valid && request.payload == nil)
        #expect(try resolve("{").payload == nil)
    }
}
