import DCEEngine
import DCEForms
import Foundation
import Observation
import Testing

/// The observable form model as an app's screen uses it: typed into field by field, observed through
/// `withObservationTracking` as SwiftUI observes it, and submitted.
@MainActor
struct FormModelTests {
    private func form(
        _ schema: String, context: [String: String] = [:], tenderType: String? = nil, language: String = "en",
        draft: [UInt8]? = nil
    ) throws -> FormModel {
        try FormModel(
            Fixtures.validator.prepare(
                schema, context: context, tenderType: tenderType,
                messages: MessageCatalogue.bundled(language: language)),
            draft: draft)
    }

    /// What a row of a screen reads of a field, by name: each is observed on its own below.
    private static let observed: [(String, (FormField) -> Any)] = [
        ("label", { $0.label }), ("placeholder", { $0.placeholder as Any }), ("help", { $0.help as Any }),
        ("minLength", { $0.minLength as Any }), ("maxLength", { $0.maxLength as Any }),
        ("kind", { $0.kind }), ("contentType", { $0.contentType as Any }),
        ("isSecret", { $0.isSecret }), ("isRequired", { $0.isRequired }), ("isForbidden", { $0.isForbidden }),
        ("state", { $0.state }), ("message", { $0.message as Any }), ("rule", { $0.rule as Any }),
        ("brand", { $0.brand as Any }), ("candidateBrands", { $0.candidateBrands }), ("options", { $0.options as Any }),
        ("text", { $0.text }), ("display", { $0.display }), ("isEditing", { $0.isEditing }),
        ("accessibilityLabel", { $0.accessibilityLabel }), ("accessibilityValue", { $0.accessibilityValue }),
        ("groupTitle", { $0.groupTitle }), ("itemCount", { $0.itemCount as Any }),
    ]

    /// Which properties of which fields an edit changes, as observers hear of them: `path property` each.
    private func changes(of form: FormModel, during edit: () throws -> Void) rethrows -> Set<String> {
        final class Heard: @unchecked Sendable {
            let lock = NSLock()
            var names: Set<String> = []
            func add(_ name: String) { lock.withLock { _ = names.insert(name) } }
        }
        let heard = Heard()
        for field in form.fields {
            for (name, read) in Self.observed {
                let label = "\(field.path) \(name)"
                withObservationTracking {
                    _ = read(field)
                } onChange: {
                    heard.add(label)
                }
            }
        }
        for (name, read) in [("fields", { (form: FormModel) -> Any in form.fields }), ("canSubmit", { $0.canSubmit })] {
            withObservationTracking {
                _ = read(form)
            } onChange: {
                heard.add("form \(name)")
            }
        }
        try edit()
        return heard.lock.withLock { heard.names }
    }

    /// Each digit changes the card number's own properties and nothing of any other field, but for the one that
    /// decides the brand: then the security code's expected length and help follow the brand, and nothing else of it.
    @Test(arguments: ["4111111111111111", "378282246310005"])
    func typingACardNumberDigitByDigitChangesOnlyThatField(_ digits: String) throws {
        let form = try form("payment-account", tenderType: "credit")
        let number = try #require(form.field(at: "/cardNumber"))
        let code = try #require(form.field(at: "/securityCode"))
        #expect(number.kind == .cardNumber && number.contentType == .creditCardNumber && !number.isSecret)
        #expect(code.minLength == 3 && code.maxLength == 4)
        number.isEditing = true
        var typed = ""
        var brandChanges = 0
        for digit in digits {
            typed.append(digit)
            let brand = number.brand
            let heard = try changes(of: form) { try form.set(typed, at: "/cardNumber") }
            let fields = Set(heard.filter { !$0.hasPrefix("form ") }.map { String($0.split(separator: " ")[0]) })
            #expect(heard.contains("/cardNumber text") && heard.contains("/cardNumber display"))
            if number.brand == brand {
                #expect(fields == ["/cardNumber"], "typing \(typed.count) digits changed \(heard.sorted())")
            } else {
                brandChanges += 1
                #expect(fields == ["/cardNumber", "/securityCode"], "\(heard.sorted())")
                let ofCode = heard.filter { $0.hasPrefix("/securityCode ") }
                // Its help, and the bound the brand moves (3 to 4 becomes 3, or 4).
                #expect(ofCode.contains("/securityCode help"))
                #expect(
                    ofCode.isSubset(of: ["/securityCode help", "/securityCode minLength", "/securityCode maxLength"]))
                #expect(ofCode.count == 2)
            }
        }
        #expect(brandChanges == 1)
        let expected = number.brand?.securityCodeLength
        #expect(code.minLength == expected && code.maxLength == expected)
        #expect(number.state == .valid && number.message == nil)
        #expect(number.candidateBrands == [try #require(number.brand)])
        #expect(number.display == (digits.count == 16 ? "4111 1111 1111 1111" : "3782 822463 10005"))
        // The same text again changes nothing; the same number typed otherwise changes only the text as typed.
        #expect(try changes(of: form) { try form.set(typed, at: "/cardNumber") }.isEmpty)
        #expect(try changes(of: form) { try form.set(number.display, at: "/cardNumber") } == ["/cardNumber text"])
    }

    @Test func theBrandIsShownOnceTheDigitsDecideIt() throws {
        let form = try form("payment-account", tenderType: "credit")
        try form.set("3", at: "/cardNumber")
        let number = try #require(form.field(at: "/cardNumber"))
        #expect(number.brand == nil && number.candidateBrands.count > 1)
        try form.set("37", at: "/cardNumber")
        #expect(number.brand?.id == "american-express")
        try form.set("3782 822463 10005", at: "/cardNumber")
        #expect(number.display == "•••• •••••• •0005")
        number.isEditing = true
        #expect(number.display == "3782 822463 10005")
        #expect(number.text == "3782 822463 10005")
        #expect(form.request().json.count > 0)
    }

    /// A card number is shown whole only while it is edited, and never spoken; a security code and a PIN are taken
    /// with secure entry and shown as `•`.
    @Test func secretsAreSecretAndACardNumberIsMaskedOnceLeft() throws {
        let form = try form("payment-account", tenderType: "credit")
        let number = try #require(form.field(at: "/cardNumber"))
        number.isEditing = true
        number.text = "4111 1111 1111 1111"
        #expect(number.display == "4111 1111 1111 1111")
        #expect(number.accessibilityValue == "Ending in 1111")
        let code = try #require(form.field(at: "/securityCode"))
        code.isEditing = true
        #expect(!number.isEditing)
        #expect(number.display == "•••• •••• •••• 1111")
        code.text = "123"
        #expect(code.isSecret && code.display == "•••" && code.accessibilityValue == "Entered, hidden")
        #expect(code.accessibilityLabel == "Security code, required")
        let pin = try #require(try self.form("card-create", context: ["region": "EU"]).field(at: "/cardPin"))
        #expect(pin.isSecret)
        let name = try #require(form.field(at: "/cardholderName"))
        #expect(!name.isSecret && name.accessibilityValue == "Empty")
        name.text = "Ada Lovelace"
        #expect(name.display == "Ada Lovelace" && name.accessibilityValue == "Ada Lovelace")
        // A card number is masked wherever it is typed, as in every output.
        name.text = "4111 1111 1111 1111"
        #expect(name.display == "•••• •••• •••• 1111" && name.accessibilityValue == "Ending in 1111")
    }

    @Test func anExpiryIsKeptAsMonthSlashYearWhateverIsTyped() throws {
        let form = try form("payment-account", tenderType: "credit")
        let expiry = try #require(form.field(at: "/expiry"))
        #expect(expiry.kind == .expiry && expiry.contentType == .creditCardExpiration)
        for (typed, kept) in [
            ("1", "1"), ("12", "12"), ("122", "12/2"), ("1230", "12/30"), ("12 / 30", "12/30"),
            ("3/30", "03/30"), ("12/30", "12/30"),
        ] {
            expiry.text = typed
            #expect(expiry.text == typed)
            #expect(expiry.display == kept, "\(typed)")
        }
        #expect(expiry.state == .valid)
        #expect(String(decoding: form.request().json, as: UTF8.self).contains(#""expiry":"12/30""#))
    }

    /// `canSubmit` is validation's verdict on the payload the form would send, for every example loaded as a draft.
    @Test(arguments: DraftInputTests.examples)
    func canSubmitIsTheVerdictOfValidatingTheRequest(example: DraftInputTests.Example) throws {
        let prepared = try Fixtures.validator.prepare(
            example.schema, context: example.context, tenderType: example.tenderType)
        guard (try? JSONDocument(bytes: example.payload)) != nil else {
            // A payload that is not JSON is no draft: the form says so, as validation does.
            #expect(throws: ValidatorError.self) { try FormModel(prepared, draft: example.payload) }
            #expect(example.expect != "valid")
            return
        }
        let form = try FormModel(prepared, draft: example.payload)
        let request = form.request()
        #expect(form.canSubmit == prepared.validate(json: request.json).valid)
        #expect(form.canSubmit == (example.expect == "valid"))
    }

    @Test func aNewTenderTypeKeepsWhatWasTypedWhereItsFieldRemains() throws {
        let form = try form("payment-account", tenderType: "credit")
        try form.set("4111 1111 1111 1111", at: "/cardNumber")
        try form.set("12/30", at: "/expiry")
        try form.set("Ada Lovelace", at: "/cardholderName")
        #expect(form.field(at: "/securityCode")?.isRequired == true)
        try form.change(context: [:], tenderType: "gift")
        #expect(form.schema.tenderType == "gift")
        #expect(form.field(at: "/cardholderName")?.text == "Ada Lovelace")
        #expect(form.field(at: "/cardNumber")?.text == "4111 1111 1111 1111")
        #expect(form.field(at: "/securityCode")?.isRequired == false)
        // A gift card number is 16 digits without a check digit: the Visa test number is still one.
        #expect(form.field(at: "/cardNumber")?.state == .valid)
        try form.change(context: [:], tenderType: "credit")
        #expect(form.field(at: "/expiry")?.text == "12/30")
    }

    /// A context that forbids a field drops its value: a US customer may not set a PIN.
    @Test func aContextThatForbidsAFieldDropsItsValue() throws {
        let form = try form("card-create", context: ["region": "EU"])
        try form.set("1234", at: "/cardPin")
        #expect(form.field(at: "/cardPin")?.state == .valid)
        try form.change(context: ["region": "US"], tenderType: nil)
        #expect(form.field(at: "/cardPin") == nil)
        #expect(!String(decoding: form.request().json, as: UTF8.self).contains("cardPin"))
        #expect(form.fields.contains { $0.path == "/termsAndConditionsAccepted" && $0.isRequired })
    }

    @Test func listsGrowAndShrinkAndTheirFieldsFollow() throws {
        let form = try form("customer-profile")
        #expect(form.field(at: "/paymentAccounts")?.kind == .list)
        let first = try form.addItem(to: "/paymentAccounts")
        let second = try form.addItem(to: "/paymentAccounts")
        #expect(form.field(at: "/paymentAccounts")?.itemCount == 2)
        try form.set("5555 5555 5555 4444", at: first + "/cardNumber")
        try form.set("4111 1111 1111 1111", at: second + "/cardNumber")
        #expect(form.field(at: second + "/cardNumber")?.brand?.id == "visa")
        try form.remove(at: first)
        #expect(form.field(at: "/paymentAccounts")?.itemCount == 1)
        #expect(form.field(at: second + "/cardNumber") == nil)
        // The second item is the first now, with what was typed into it as it was typed.
        let moved = try #require(form.field(at: first + "/cardNumber"))
        #expect(moved.text == "4111 1111 1111 1111" && moved.brand?.id == "visa")
    }

    /// Placeholder, help and autofill are the schema's (`placeholder`, `help`, `autofill`), and a security code's help
    /// follows the card's brand as its rules do (an override on the derived context `brand`).
    @Test func hintsComeFromTheSchemaAndFollowTheRulesInForce() throws {
        let form = try form("payment-account", tenderType: "credit")
        let code = try #require(form.field(at: "/securityCode"))
        #expect(code.kind == .securityCode && code.contentType == .creditCardSecurityCode && code.isSecret)
        #expect(code.placeholder == "CVC")
        let either = try #require(code.help)
        try form.set("3782", at: "/cardNumber")
        let amex = try #require(code.help)
        try form.set("4111", at: "/cardNumber")
        let visa = try #require(code.help)
        #expect(Set([either, amex, visa]).count == 3)
        #expect(amex.contains("4 digits") && visa.contains("3 digits"))
        #expect(code.maxLength == 3)
        #expect(form.field(at: "/cardholderName")?.contentType == .creditCardName)
        #expect(form.field(at: "/expiry")?.placeholder == "MM/YY")
        let pin = try #require(try self.form("card-create", context: ["region": "EU"]).field(at: "/cardPin"))
        #expect(pin.kind == .pin && pin.contentType == nil && pin.isSecret)
        let german = try self.form("payment-account", tenderType: "credit", language: "de")
        #expect(german.field(at: "/expiry")?.placeholder == "MM/JJ")
        #expect(FormField.ContentType.allCases.allSatisfy { FormField.ContentType(htmlToken: $0.htmlToken) == $0 })
    }

    /// Every placeholder of the shipped schemas is a format or a made-up example: none is a card number.
    @Test func noPlaceholderIsACardNumber() throws {
        for id in Fixtures.validator.schemaIDs {
            let schema = try #require(Fixtures.validator.schema(id))
            for language in MessageCatalogue.bundledLanguages {
                for field in try schema.describeForm(language: language).groups.flatMap(\.fields) {
                    guard let placeholder = field.placeholder else { continue }
                    #expect(!Masking.isCardNumber(placeholder), "\(id) \(field.path) \(language): \(placeholder)")
                }
            }
        }
    }

    @Test func wordsComeInTheFormsLanguage() throws {
        let form = try form("payment-account", tenderType: "credit", language: "de")
        let code = try #require(form.field(at: "/securityCode"))
        #expect(code.label == "Sicherheitscode" && code.accessibilityLabel == "Sicherheitscode, Pflichtfeld")
        code.text = "12"
        #expect(code.accessibilityValue == "Eingegeben, verborgen")
        #expect(code.groupTitle == "Karteninformationen")
    }

    /// What a log line or a crash report would print of a request shows no byte of it.
    @Test func aRequestPrintsNoValue() throws {
        let form = try form("payment-account", tenderType: "credit")
        try form.set("4111111111111111", at: "/cardNumber")
        try form.set("737", at: "/securityCode")
        let request = form.request()
        var dumped = ""
        dump(request, to: &dumped)
        for text in [String(describing: request), String(reflecting: request), dumped] {
            #expect(!text.contains("4111") && !text.contains("737"))
        }
        #expect(String(describing: request) == "FormRequest(payment-account, \(request.json.count) bytes)")
    }

    /// What a keystroke works out again is what it can change: typed into a form, every string of every valid example
    /// (its first character, all but its last, all of it, from empty) leaves each field, the field list, the verdict
    /// and the violations as a form made afresh on the same draft has them.
    @Test(arguments: DraftInputTests.examples.filter { $0.expect == "valid" })
    func aKeystrokeLeavesTheFormAsAFreshFormOnTheSameDraft(example: DraftInputTests.Example) throws {
        let prepared = try Fixtures.validator.prepare(
            example.schema, context: example.context, tenderType: example.tenderType)
        let form = try FormModel(prepared, draft: example.payload)
        guard let document = try? JSONDocument(bytes: example.payload) else { return }
        let strings = DraftInputTests.strings(of: SchemaValue(document: document, at: document.root), schema: prepared)
        for (path, text) in strings where form.field(at: path) != nil {
            try form.remove(at: path)
            for length in Set([1, text.count - 1, text.count]).sorted() where length > 0 {
                try form.set(String(text.prefix(length)), at: path)
                let fresh = try FormModel(prepared, draft: form.request().json)
                let step = "\(example.file) \(path) typed \(length) of \(text.count)"
                #expect(form.fields.map(\.path) == fresh.fields.map(\.path), "\(step)")
                #expect(form.canSubmit == fresh.canSubmit && form.violations == fresh.violations, "\(step)")
                for field in form.fields {
                    guard let other = fresh.field(at: field.path) else { continue }
                    for (name, read) in Self.observed where name != "text" {
                        #expect(
                            String(describing: read(field)) == String(describing: read(other)),
                            "\(step): \(field.path) \(name)")
                    }
                }
            }
        }
    }
}
