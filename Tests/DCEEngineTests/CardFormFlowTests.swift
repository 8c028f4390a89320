import DCEEngine
import DCEForms
import Foundation
import Testing

/// The flow of the DocC article "A card form in SwiftUI", keystroke by keystroke, against the model: what the screen's
/// bindings read and write, on Linux. A `TextField` bound to `entry` writes back what it shows with the character
/// typed; a `SecureField` bound to `text` writes what is typed; focus sets `isEditing`.
@MainActor
struct CardFormFlowTests {
    /// `makeCardForm` of the article, in English.
    private func makeCardForm() throws -> FormModel {
        try FormModel(
            Fixtures.validator.prepare(
                "payment-account", tenderType: "credit", messages: MessageCatalogue.bundled(preferring: ["en-GB"])))
    }

    /// `CardForm.sections` of the article.
    private func sections(of form: FormModel) -> [(title: String, fields: [FormField])] {
        form.fields.reduce(into: []) { sections, field in
            if sections.last?.title == field.groupTitle {
                sections[sections.count - 1].fields.append(field)
            } else {
                sections.append((field.groupTitle, [field]))
            }
        }
    }

    /// A person typing into a row: character by character into what the row's control shows.
    private func type(_ characters: String, into field: FormField) {
        field.isEditing = true
        for character in characters {
            if field.isSecret {
                field.text += String(character)
            } else {
                field.entry += String(character)
            }
        }
        field.isEditing = false
    }

    @Test func theArticlesCardFormAddsACard() throws {
        let form = try makeCardForm()
        #expect(sections(of: form).map(\.title) == ["Card information", "Billing information"])
        #expect(!form.canSubmit)
        let number = try #require(form.field(at: "/cardNumber"))
        #expect(number.kind == .cardNumber && number.contentType == .creditCardNumber && !number.isSecret)
        #expect(number.accessibilityLabel == "Card number, required")

        // The card number, as its TextField writes it back: grouped while edited, each digit into what it shows.
        number.isEditing = true
        for digit in "4111111111111111" { number.entry += String(digit) }
        #expect(number.entry == "4111 1111 1111 1111" && number.brand?.id == "visa" && number.state == .valid)
        #expect(number.accessibilityValue == "Ending in 1111")
        number.isEditing = false
        #expect(number.entry == "•••• •••• •••• 1111")

        let expiry = try #require(form.field(at: "/expiry"))
        #expect(expiry.kind == .expiry && expiry.contentType == .creditCardExpiration)
        type("1220", into: expiry)
        #expect(expiry.state == .invalid && expiry.message != nil, "a row shows the message of a past expiry")
        expiry.text = ""
        type("1239", into: expiry)
        #expect(expiry.display == "12/39" && expiry.state == .valid && expiry.message == nil)

        // The security code is secret: a SecureField on `text`; what is shown and spoken holds no digit of it.
        let code = try #require(form.field(at: "/securityCode"))
        #expect(code.isSecret && code.kind == .securityCode && code.maxLength == 3)
        type("737", into: code)
        #expect(code.state == .valid && code.accessibilityValue == "Entered, hidden" && !code.display.contains("7"))

        type("Ivan Petrov", into: try #require(form.field(at: "/cardholderName")))
        #expect(!form.canSubmit, "the billing address is still missing")
        let address: [(String, String)] = [
            ("/billingAddress/line1", "1600 Pennsylvania Ave NW"), ("/billingAddress/city", "Washington"),
            ("/billingAddress/country", "US"), ("/billingAddress/state", "DC"),
            ("/billingAddress/zipCode", "205000003"),
        ]
        for (path, text) in address {
            let field = try #require(form.field(at: path), "\(path)")
            if field.options != nil {
                field.text = text  // the row's Picker
            } else {
                type(text, into: field)
            }
        }
        #expect(form.field(at: "/billingAddress/zipCode")?.contentType == .postalCode)
        #expect(form.canSubmit, "\(form.violations.map(\.message))")

        // The button sends the request: validation's verdict on it is the one that enabled the button.
        let request = form.request()
        #expect(String(describing: request) == "FormRequest(payment-account, \(request.json.count) bytes)")
        let report = try Fixtures.validator.prepare("payment-account", tenderType: "credit").validate(
            json: request.json)
        #expect(report.errors.isEmpty, "\(report.errors.map(\.message))")
        let sent = String(decoding: request.json, as: UTF8.self)
        #expect(sent.contains("4111111111111111") && sent.contains("\"12/39\"") && sent.contains("737"))
    }
}
