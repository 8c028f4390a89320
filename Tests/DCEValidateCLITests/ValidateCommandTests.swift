import Foundation
import Testing

/// `dce-validate` from the outside: arguments, exit statuses, both report formats, and bad input.
@Suite(.serialized) struct ValidateCommandTests {
    @Test func aValidPayloadExitsZero() throws {
        let result = try CLI.run(["Examples/card-create/valid-eu-virtual.json", "--schema", "card-create"])
        #expect(result.status == 0)
        #expect(result.out == "valid: 1 payload checked against card-create, 1 valid, 0 invalid, 0 errors\n")
        #expect(result.err.isEmpty)
    }

    /// Seed 002's iOS sample (no walletType) passes when the app says it runs on iOS, and only then.
    @Test func theIOSSampleNeedsThePlatform() throws {
        let sample = "Examples/card-tokenize/valid-ios-swift-sample.json"
        #expect(try CLI.run([sample, "--schema", "card-tokenize", "--context", "platform=ios"]).status == 0)
        let unknown = try CLI.run([sample, "--schema", "card-tokenize"])
        #expect(unknown.status == 1 && unknown.out.contains("/walletType: Wallet type is required [required]"))
        let android = try CLI.run([sample, "--schema", "card-tokenize", "--context", "platform=android"])
        #expect(android.status == 1 && android.out.contains("/walletType: Wallet type is required [required]"))
        let describe = try CLI.run(["describe", "--schema", "card-tokenize", "--context", "platform=ios"])
        #expect(describe.out.contains("Wallet type (/walletType): optional"), "\(describe.out)")
        #expect(describe.out.contains("Nonce (/nonce): required"), "\(describe.out)")
    }

    /// describe lists every account's fields of a customer profile, each under the tender type it will name.
    @Test func describeListsTheFieldsOfEveryItem() throws {
        let result = try CLI.run(["describe", "--schema", "customer-profile"])
        #expect(result.status == 0)
        #expect(
            result.out.contains(
                "Account type (/paymentAccounts/-/accountType): required, choice, one of credit, debit, gift"))
        #expect(
            result.out.contains("Security code (/paymentAccounts/-/securityCode): required depending on other fields"))
        #expect(result.out.contains("Zip code (/profileAddress/zipCode): required, numeric"))
    }

    @Test func anInvalidPayloadExitsOneWithOneLinePerErrorAndASummary() throws {
        let result = try CLI.run(["Examples/card-create/invalid-format-currency.json", "--schema", "card-create"])
        #expect(result.status == 1)
        #expect(
            result.out == """
                Examples/card-create/invalid-format-currency.json:3:15: error: /currency: Currency must be an ISO 4217 currency code [format]
                invalid: 1 payload checked against card-create, 0 valid, 1 invalid, 1 error

                """)
    }

    @Test func messagesInTheLanguageAsked() throws {
        let german = try CLI.run([
            "Examples/card-create/invalid-format-currency.json", "--schema", "card-create", "--language", "de",
        ])
        #expect(german.status == 1)
        #expect(
            german.out == """
                Examples/card-create/invalid-format-currency.json:3:15: error: /currency: Währung muss ein Währungscode nach ISO 4217 sein [format]
                ungültig: 1 Anfrage gegen card-create geprüft, 0 gültig, 1 ungültig, 1 Fehler

                """)
        let austrian = try CLI.run([
            "Examples/card-create/invalid-format-currency.json", "--schema", "card-create", "--language", "de-AT",
        ])
        #expect(austrian.out == german.out)
        let bulgarian = try CLI.run([
            "Examples/card-create/invalid-format-currency.json", "--schema", "card-create", "--language", "bg",
        ])
        #expect(
            bulgarian.out.contains(
                "/currency: Валута трябва да бъде код на валута по ISO 4217 [format]\nневалидно: 1 заявка проверена"))
        let unknown = try CLI.run([
            "Examples/card-create/invalid-format-currency.json", "--schema", "card-create", "--language", "xx",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("no message catalogue for 'xx' (shipped: bg, de, en, es, fr)"))
        // An app's own catalogue for a language the package does not ship: its messages, English for the rest.
        let scratch = try CLI.scratchDirectory()
        let catalogue = scratch.appendingPathComponent("it.json")
        try Data(#"{"language": "it", "messages": {"format": "{name} deve essere {expected}"}}"#.utf8).write(
            to: catalogue)
        let italian = try CLI.run([
            "Examples/card-create/invalid-format-currency.json", "--schema", "card-create", "--language",
            catalogue.path,
        ])
        #expect(
            italian.out.contains(
                "/currency: Currency deve essere an ISO 4217 currency code [format]\ninvalid: 1 payload checked"))
    }

    /// describe and check-input speak the language asked for too: labels, notes and verdicts.
    @Test func formsAndTypedInputInTheLanguageAsked() throws {
        let french = try CLI.run([
            "describe", "--schema", "delivery-address", "--given", "/countryCode=US", "--language", "fr",
        ])
        #expect(french.status == 0)
        #expect(
            french.out.contains(
                "  Code postal (/postalCode): obligatoire, texte, code postal US (appelé code ZIP), par exemple 95014, saisie automatique postal-code\n"
            ), "\(french.out)")
        let spanish = try CLI.run(["describe", "--schema", "card-create", "--language", "es-MX"])
        #expect(spanish.out.hasPrefix("Crear una tarjeta prepago (card-create)\n"), "\(spanish.out)")
        let german = try CLI.run([
            "check-input", "--schema", "payment-account", "--field", "/cardNumber", "--language", "de", "41",
        ])
        #expect(german.status == 1)
        #expect(german.out == "/cardNumber: unvollständig (Visa, CVV 3 Ziffern)\n")
    }

    @Test func oneStepOfAForm() throws {
        let draft = Data(#"{"programName": "SKRILL-PHYSICAL-MC-EEA", "currency": 12, "cardPin": "1a"}"#.utf8)
        let address = try CLI.run(["-", "--schema", "card-create", "--data-group", "DELIVERY_ADDRESS"], stdin: draft)
        #expect(address.status == 1)
        #expect(
            address.out.contains(
                "/deliveryAddress: Delivery address is required for a physical card program [required]"))
        #expect(!address.out.contains("/currency") && !address.out.contains("/cardPin"))
        let pin = try CLI.run(["-", "--schema", "card-create", "--field", "/cardPin"], stdin: draft)
        #expect(pin.out.hasPrefix("-:1:70: error: /cardPin: Card PIN must be exactly 4 digits [regex]\n"))
        let wrong = try CLI.run(["-", "--schema", "card-create", "--data-group", "ADDRESS"], stdin: draft)
        #expect(wrong.status == 2)
        #expect(wrong.err.contains("has no data group 'ADDRESS'"))
    }

    @Test func jsonFormatFollowsTheContract() throws {
        let result = try CLI.run([
            "Examples/card-create/valid-eu-virtual.json", "Examples/card-create/invalid-required-physical-address.json",
            "--schema", "card-create", "--format", "json",
        ])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["schema"] as? String == "card-create")
        #expect(object["valid"] as? Bool == false)
        let payloads = try #require(object["payloads"] as? [[String: Any]])
        #expect(
            payloads.map { $0["file"] as? String } == [
                "Examples/card-create/valid-eu-virtual.json",
                "Examples/card-create/invalid-required-physical-address.json",
            ])
        #expect(payloads.map { $0["valid"] as? Bool } == [true, false])
        let error = try #require((payloads[1]["errors"] as? [[String: Any]])?.first)
        #expect(error["path"] as? String == "/deliveryAddress")
        #expect(error["key"] as? String == "deliveryAddress")
        #expect(error["rule"] as? String == "required")
        #expect(error["message"] as? String == "Delivery address is required for a physical card program")
        #expect(error["line"] as? Int == 1 && error["column"] as? Int == 1)
    }

    @Test func contextAndStandardInput() throws {
        let payload = Data(#"{"programName": "P", "currency": "USD"}"#.utf8)
        let us = try CLI.run(["-", "--schema", "card-create", "--context", "region=US"], stdin: payload)
        #expect(us.status == 1)
        #expect(
            us.out.contains(
                "-:1:1: error: /termsAndConditionsAccepted: Terms and conditions accepted is required [required]"))
        let eu = try CLI.run(["-", "--schema", "card-create", "--context", "region=EU"], stdin: payload)
        #expect(eu.status == 0)
    }

    @Test func tenderTypeAndSchemasDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dce-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(
            #"{"id": "gift", "tenderTypes": ["credit", "gift"], "fields": [{"key": "cvv", "dataType": "String", "tenderTypes": {"credit": {"required": true}}}]}"#
                .utf8
        )
        .write(to: directory.appendingPathComponent("gift.json"))
        let payload = Data("{}".utf8)
        let credit = try CLI.run(
            ["-", "--schema", "gift", "--schemas", directory.path, "--tender-type", "credit"], stdin: payload)
        #expect(credit.status == 1)
        let gift = try CLI.run(
            ["-", "--schema", "gift", "--schemas", directory.path, "--tender-type", "gift"], stdin: payload)
        #expect(gift.status == 0)
        let unknown = try CLI.run(
            ["-", "--schema", "gift", "--schemas", directory.path, "--tender-type", "debit"], stdin: payload)
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("no tender type 'debit'"))
    }

    @Test func outputFileReceivesTheReport() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dce-report-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([
            "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--format", "json", "--output",
            output.path,
        ])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        #expect(report?["valid"] as? Bool == true)
    }

    @Test func worksFromAnyWorkingDirectoryWithTheShippedSchemas() throws {
        let payload = CLI.repository.appendingPathComponent("Examples/card-create/valid-eu-virtual.json").path
        let result = try CLI.run([payload, "--schema", "card-create"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0, "\(result.err)")
    }

    @Test func malformedJSONIsInvalidWithItsLineAndColumn() throws {
        let result = try CLI.run(["Examples/card-create/invalid-json-trailing-comma.json", "--schema", "card-create"])
        #expect(result.status == 1)
        #expect(
            result.out.hasPrefix(
                "Examples/card-create/invalid-json-trailing-comma.json:4:1: error: not well-formed JSON: trailing comma before '}' [json]"
            ))
    }

    @Test(arguments: [
        (["x.json"], "--schema"),
        (["Examples/card-create/valid-eu-virtual.json", "--schema", "card-creat"], "did you mean 'card-create'?"),
        (
            ["Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--context", "region"],
            "KEY=VALUE"
        ),
        (
            ["Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--context", "regoin=US"],
            "did you mean 'region'?"
        ),
        (
            ["Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--context", "region=CA"],
            "takes one of US, EU"
        ),
        (["Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--format", "xml"], "xml"),
        (["Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--bogus"], "--bogus"),
        (["no-such-file.json", "--schema", "card-create"], "no-such-file.json: cannot read the payload: no such file"),
        (["Examples/card-create/valid-eu-virtual.json", "--schema", "../Package"], "no schema with id '../Package'"),
    ])
    func usageErrorsAndUnreadableFilesExitTwo(arguments: [String], expected: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.err.contains(expected), "\(result.err)")
    }

    @Test func brokenSchemaFilesExitTwoWithFileLineAndPointer() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dce-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.json")
        try Data(
            "{\"id\": \"broken\",\n \"fields\": [{\"key\": \"a\", \"dataType\": \"String\",\n   \"additionalDataValidations\": [{\"regex\": \"(\"}]}]}"
                .utf8
        ).write(to: file)
        let result = try CLI.run(["-", "--schema", "broken", "--schemas", directory.path], stdin: Data("{}".utf8))
        #expect(result.status == 2)
        #expect(
            result.err.contains(
                "\(file.path):3:44: error: /fields/0/additionalDataValidations/0/regex: the regex does not compile"),
            "\(result.err)")
    }

    @Test func helpShowsARealExample() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("dce-validate Examples/card-create/valid-eu-virtual.json --schema card-create"))
        let validateHelp = try CLI.run(["help", "validate"])
        #expect(validateHelp.out.contains("--context <key=value>"))
    }

    @Test func hugeAndDeeplyNestedPayloadsGetAVerdictNotACrash() throws {
        let deep = Data((String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)).utf8)
        let result = try CLI.run(["-", "--schema", "card-create"], stdin: deep)
        #expect(result.status == 1)
        #expect(result.out.contains("nesting deeper than 128 levels [tooDeep]"))
        let huge = Data(("{\"programName\": \"" + String(repeating: "x", count: 17 << 20) + "\"}").utf8)
        let big = try CLI.run(["-", "--schema", "card-create"], stdin: huge)
        #expect(big.status == 1)
        #expect(big.out.contains("the limit is 16777216 [tooLarge]"), "\(big.out.prefix(300))")
    }
}
