import DCEEngine
import DCEModels
import DCEReports
import Foundation
import Testing

/// A PIN (`pciEncryptionRequired`, `storageRestricted`) never appears in anything the tool or the API produces:
/// every test searches the raw output bytes for the PIN's digits.
@Suite(.serialized) struct SensitiveOutputTests {
    static let pin = "8264"

    /// Payloads that put the PIN in front of every kind of rule: forbidden, regex, type, duplicate key, unknown
    /// field, malformed JSON around it, a wrong-type sibling.
    static let payloads: [String] = [
        #"{"programName": "P", "currency": "USD", "cardPin": "8264", "termsAndConditionsAccepted": true, "eDisclosureAccepted": true, "deliveryAddress": {"address1": "a", "city": "Austin", "countryCode": "US", "postalCode": "78701"}}"#,
        #"{"programName": "P", "currency": "EUR", "cardPin": "8264x"}"#,
        #"{"programName": "P", "currency": "EUR", "cardPin": "82645"}"#,
        #"{"programName": "P", "currency": "EUR", "cardPin": 8264}"#,
        #"{"programName": "P", "currency": "EUR", "cardPin": "0000", "cardPin": "8264"}"#,
        #"{"programName": "P", "currency": "EUR", "cardpin": "8264"}"#,
        #"{"programName": "P", "currency": "EUR", "cardPin": 8264x}"#,
        #"{"programName": "P", "currency": "EUR", "cardPin": "8264""#,
        "{\"programName\": \"P\", \"currency\": \"EUR\", \"cardPin\": \"82\u{1}64\"}",
        #"{"programName": "P", "currency": "EUR", "cardPin": "\u00382645"}"#,
    ]

    private func expectNoPIN(_ bytes: Data, _ context: String) {
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains(Self.pin), "the PIN leaked in \(context): \(text)")
        #expect(bytes.range(of: Data(Self.pin.utf8)) == nil)
    }

    @Test func theCLINeverPrintsThePIN() throws {
        for (offset, payload) in Self.payloads.enumerated() {
            for format in ["text", "json"] {
                let result = try CLI.run(
                    ["-", "--schema", "card-create", "--format", format], stdin: Data(payload.utf8))
                #expect(result.status == 1, "payload \(offset) must be invalid")
                expectNoPIN(result.allBytes, "payload \(offset), \(format)")
            }
        }
    }

    @Test func theAPIsReportsNeverContainThePIN() throws {
        let validator = try Validator()
        for payload in Self.payloads {
            let report = try validator.validate(json: Array(payload.utf8), schema: "card-create")
            #expect(!report.valid)
            expectNoPIN(try JSONEncoder().encode(report), "an encoded report")
            expectNoPIN(Data(String(describing: report).utf8), "a report's description")
            expectNoPIN(Data(String(reflecting: report).utf8), "a report's debug description")
            var dumped = ""
            dump(report, to: &dumped)
            expectNoPIN(Data(dumped.utf8), "a dumped report")
            for format in ReportFormat.allCases {
                expectNoPIN(
                    Data(
                        format.render(
                            ValidationRun(schema: "card-create", payloads: [PayloadReport(file: "-", report: report)])
                        ).utf8), "\(format)")
            }
        }
    }

    @Test func typedRequestsDoNotPrintThePIN() throws {
        let request = CardRequest(programName: "P", currency: "USD", cardPin: SensitiveString(Self.pin))
        expectNoPIN(Data(String(describing: request).utf8), "a request's description")
        expectNoPIN(Data(String(reflecting: request).utf8), "a request's debug description")
        expectNoPIN(Data("\(request)".utf8), "interpolation")
        var dumped = ""
        dump(request, to: &dumped)
        expectNoPIN(Data(dumped.utf8), "dump")
        let report = try Validator().validate(request, context: ["region": "US"])
        #expect(report.errors.contains { $0.rule.rawValue == "forbidden" && $0.path == "/cardPin" })
        expectNoPIN(try JSONEncoder().encode(report), "the report")
        // The value still reaches the wire: encoding is how it is sent.
        #expect(String(decoding: try JSONEncoder().encode(request), as: UTF8.self).contains(Self.pin))
    }
}
