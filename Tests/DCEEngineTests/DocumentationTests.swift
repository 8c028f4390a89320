import DCEEngine
import DCEForms
import DCEModels
import Foundation
import Testing

/// The documentation says what the package does: the code listings of the app article run here as written (and the
/// article's listings are checked to be this file's code, so that neither drifts), the schema language reference
/// names every attribute the meta-schema defines, and its example schema compiles and validates as it says.
struct DocumentationTests {
    static let catalog = Fixtures.repository.appendingPathComponent("Sources/DCEEngine/Documentation.docc")

    // The listings of GettingStartedInAnApp.md, in order; each block between blank lines is one listing.
    @Test func theAppArticleListingsRunAsWritten() throws {
        let validator = try Validator()
        let currency = #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EURO"}"#
        let report = try validator.validate(
            json: Array(currency.utf8), schema: "card-create", context: ["region": "EU"])
        let problems = report.errors.map { "\($0.path): \($0.message) [\($0.rule)]" }
        #expect(report.valid == false)
        #expect(problems == ["/currency: Currency must be an ISO 4217 currency code [format]"])

        let request = CardRequest(programName: "SKRILL-VIRTUAL-MC-EEA", currency: "EUR", cardPin: "1234")
        let typed = try validator.validate(request, context: ["region": "EU"])
        #expect(typed.valid == true, "\(typed.errors)")

        let german = try validator.prepare("card-create", context: ["region": "EU"], messages: .bundled(language: "de"))
        let inGerman = german.validate(json: Array(currency.utf8)).errors.map(\.message)
        #expect(inGerman == ["Währung muss ein Währungscode nach ISO 4217 sein"])

        let form = try validator.prepare("payment-account", tenderType: "debit")
        let typing = try form.checkInput("41", at: "/cardNumber")
        let mistyped = try form.checkInput("41a", at: "/cardNumber")
        #expect(typing == .incomplete && mistyped == .invalid(.format))

        let address = try validator.schema("delivery-address")?.describeForm(given: ["/countryCode": "US"])
        let postalCode = address?.groups.flatMap(\.fields).first { $0.path == "/postalCode" }
        #expect(postalCode?.required == true && postalCode?.label == "Postal code", "\(String(describing: postalCode))")

        let account = try validator.prepare("payment-account", tenderType: "credit")
        let submitted = #"{"accountType": "credit", "cardNumber": "4111111111111111", "securityCode": "123"}"#
        let shown = String(decoding: try account.masked(json: Array(submitted.utf8)), as: UTF8.self)
        #expect(!shown.contains("4111111111111111") && !shown.contains("123") && shown.contains("1111"), "\(shown)")
    }

    @Test func theAppArticleShowsTheCodeThisFileRuns() throws {
        let article = try String(
            contentsOf: Self.catalog.appendingPathComponent("GettingStartedInAnApp.md"), encoding: .utf8)
        let tested = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let listings = Self.blocks(of: "swift", in: article)
        #expect(listings.count == 6)
        for listing in listings {
            // The comments say what the test's expectations check; the code must be the test's, line for line.
            let code = listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.hasPrefix("//") }
            let found = tested.indices.contains { start in
                start + code.count <= tested.count && Array(tested[start..<start + code.count]) == code
            }
            #expect(found, "the article's listing is not this file's code:\n\(listing)")
        }
    }

    /// The listing of DCEForms' landing page, as written (imports aside), and checked to be this code.
    @Test func theFormsPageListingRunsAsWritten() throws {
        let validator = try Validator()
        var form = try FormSession(validator.prepare("payment-account", tenderType: "credit"))
        try form.set("4111 1111 1111 1111", at: "/cardNumber")
        let brand = form.field(at: "/cardNumber")?.cardBrand?.id
        #expect(brand == "visa")

        let page = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Sources/DCEForms/Documentation.docc/DCEForms.md"),
            encoding: .utf8)
        let tested = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let listing = try #require(Self.blocks(of: "swift", in: page).first)
        let code = listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("//") && !$0.hasPrefix("import ") && !$0.isEmpty }
        #expect(code.count == 4)
        let found = tested.indices.contains { start in
            start + code.count <= tested.count && Array(tested[start..<start + code.count]) == code
        }
        #expect(found, "the page's listing is not this test's code:\n\(listing)")
    }

    @Test func theSchemaLanguageReferenceNamesEveryAttributeOfTheMetaSchema() throws {
        let reference = try String(
            contentsOf: Self.catalog.appendingPathComponent("SchemaLanguage.md"), encoding: .utf8)
        let metaSchema = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Fixtures.schemas.appendingPathComponent("dce-schema.schema.json")))
        var names = Set<String>()
        var values = Set<String>()
        func walk(_ node: Any) {
            if let object = node as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] { names.formUnion(properties.keys) }
                for value in object.values { walk(value) }
            } else if let array = node as? [Any] {
                for value in array { walk(value) }
            }
        }
        walk(metaSchema)
        let definitions = (metaSchema as? [String: Any])?["$defs"] as? [String: Any]
        for name in ["format", "dataType"] {
            values.formUnion(((definitions?[name] as? [String: Any])?["enum"] as? [String]) ?? [])
        }
        #expect(names.count > 60 && values.count > 20)
        let missing = (names.union(values)).filter { !reference.contains("`\($0)`") }.sorted()
        #expect(missing == [], "SchemaLanguage.md does not name \(missing)")
        let ruleCodes = ViolationCode.catalogue.map(\.code.rawValue).filter { !reference.contains("`\($0)`") }
        #expect(ruleCodes == [], "SchemaLanguage.md does not name the rule codes \(ruleCodes)")
    }

    @Test func theSchemaLanguageExampleCompilesAndValidates() throws {
        let reference = try String(
            contentsOf: Self.catalog.appendingPathComponent("SchemaLanguage.md"), encoding: .utf8)
        let example = try #require(Self.blocks(of: "json", in: reference).first)
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

    /// The contents of the fenced blocks of one language, in order.
    static func blocks(of language: String, in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```\(language)" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
