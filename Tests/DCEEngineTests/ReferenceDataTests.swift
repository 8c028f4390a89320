import DCEForms
import Foundation
import Testing

@testable import DCEEngine

/// Reference data as data: card brands from the number, code lists with their dates, read from `Schemas/reference/`
/// or from a catalogue's documents, with every problem in a file reported where it is.
@Suite struct ReferenceDataTests {
    private let brands = ReferenceData.bundled.cardBrands

    private func brand(_ number: String) -> String? {
        if case .brand(let index) = brands.detect(number) { brands.brands[index].id } else { nil }
    }

    /// One number of every brand, from the ranges the networks publish (the file's own citations).
    @Test(arguments: [
        ("4111111111111111", "visa"), ("5555555555554444", "mastercard"), ("2221000000000009", "mastercard"),
        ("2720990000000007", "mastercard"), ("378282246310005", "american-express"), ("6011111111111117", "discover"),
        ("6445644564456445", "discover"), ("30569309025904", "diners-club"), ("3530111333300000", "jcb"),
        ("6200000000000005", "unionpay"), ("6759649826438453", "maestro"), ("2200000000000004", "mir"),
        ("4011780000000000", "elo"), ("6504050000000000", "elo"), ("6370950000000005", "hiper"),
        ("6062826786276634", "hipercard"), ("9792000000000000", "troy"), ("6502740000000001", "troy"),
        ("5000000000000611", "maestro"), ("6304000000000000", "maestro"), ("5061001234567890", "verve"),
        ("5895626292990446", "naranja"),
    ])
    func everyBrandIsFoundFromItsNumber(number: String, id: String) {
        #expect(brand(number) == id)
    }

    /// A prefix decides the brand only when every number that starts with it is of that brand.
    @Test func aPrefixDecidesOnlyWhenEveryContinuationAgrees() {
        #expect(brand("41") == "visa")
        #expect(brand("4") == nil && brands.detect("4") == .undecided)  // Elo's 401178, 431274, … are inside 4
        #expect(brand("43") == nil)  // Elo's 431274 and 438935
        #expect(brand("34") == "american-express")
        #expect(brand("2221") == "mastercard")
        #expect(brand("22") == nil)  // Mir's 2200-2204 and Mastercard's 2221-2720
        #expect(brand("3") == nil && brands.detect("3") == .undecided)
        #expect(brands.detect("7") == .unknown)
        #expect(brands.detect("1") == .undecided)  // JCB's 1800, and numbers of no brand
        #expect(brand("6011") == "discover" && brand("6012") == "maestro")  // Maestro's 6 holds what others' do not
        #expect(brand("4111 1111") == "visa")
    }

    /// A complete number's brand is found by a binary search over runs of prefixes made once from the ranges; it must
    /// say what the walk over every range says, at each range's first and last prefix, either side of them, and
    /// anywhere else.
    @Test func theRunsOfCompleteNumbersAgreeWithTheRanges() {
        let digits = brands.longestPrefix
        var prefixes: [Int] = []
        for range in brands.ranges {
            let scale = CardBrands.power(digits - range.digits)
            for bound in [range.low * scale, (range.high + 1) * scale - 1] {
                prefixes += [bound - 1, bound, bound + 1]
            }
        }
        var random = SystemRandomNumberGenerator()
        prefixes += (0..<100_000).map { _ in Int.random(in: 0..<CardBrands.power(digits), using: &random) }
        let disagreements = prefixes.filter { $0 >= 0 && $0 < CardBrands.power(digits) }
            .filter { brands.completeNumberBrand(prefix: $0) != brands.scanned(prefix: $0, digits: digits) }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// A number being typed is compared with each range as prefixes of one length; it must say what the walk over
    /// every range scaled to its own digits says (written out here as it was): for every prefix of up to five digits,
    /// at each range's bounds at every length, and anywhere else.
    @Test func aNumberBeingTypedIsDetectedAsTheWalkOverEveryRangeDetectsIt() {
        func walked(prefix: Int, digits: Int) -> CardBrands.Detection {
            var (mayEnterOther, mayEnterAny, candidate) = (false, false, -1)
            for range in brands.ranges {
                if range.digits > digits {
                    let scale = CardBrands.power(range.digits - digits)
                    guard range.low <= prefix * scale + scale - 1 && prefix * scale <= range.high else { continue }
                    if mayEnterAny && range.brand != candidate { mayEnterOther = true }
                    if !mayEnterAny { candidate = range.brand }
                    mayEnterAny = true
                } else if (range.low...range.high).contains(prefix / CardBrands.power(digits - range.digits)) {
                    guard !mayEnterAny || (!mayEnterOther && candidate == range.brand) else { return .undecided }
                    return .brand(range.brand)
                }
            }
            return mayEnterAny ? .undecided : .unknown
        }
        var cases: [(prefix: Int, digits: Int)] = []
        for digits in 0...5 { cases += (0..<CardBrands.power(digits)).map { ($0, digits) } }
        var random = SystemRandomNumberGenerator()
        for digits in 6..<brands.longestPrefix {
            for range in brands.ranges {
                for bound in [range.low, range.high, range.high + 1] {
                    let prefix =
                        range.digits >= digits
                        ? bound / CardBrands.power(range.digits - digits)
                        : bound * CardBrands.power(digits - range.digits)
                    cases += [prefix - 1, prefix, prefix + 1].map { ($0, digits) }
                }
            }
            cases += (0..<20_000).map { _ in (Int.random(in: 0..<CardBrands.power(digits), using: &random), digits) }
        }
        let disagreements = cases.filter { $0.prefix >= 0 && $0.prefix < CardBrands.power($0.digits) }
            .filter {
                brands.scanned(prefix: $0.prefix, digits: $0.digits) != walked(prefix: $0.prefix, digits: $0.digits)
            }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func completeNumbersFollowTheirBrandsLengthsAndCheckDigit() {
        let format = Format.cardNumber
        #expect(format.accepts("4111111111111111"))
        #expect(!format.accepts("4111111111111112"))  // check digit
        #expect(!format.accepts("411111111111116"))  // 15 digits: Visa has 13, 16 or 19
        #expect(format.accepts("378282246310005"))
        #expect(!format.accepts("3782822463100050"))  // American Express has 15
        #expect(format.accepts("6200000000000005") && format.accepts("6200000000000006"))  // UnionPay: no Luhn check
        // no known brand: refused, whatever its length and check digit (a form shows it invalid from its first digit)
        #expect(!format.accepts("123456789015") && !format.accepts("1234567812345670"))
        #expect(format.accepts("62000000000000"))  // UnionPay has 14 to 19 digits
        #expect(!format.accepts("4111 1111 1111 1111"))
        #expect(Format.cardNumberWithSeparators.accepts("4111 1111 1111 1111"))
        #expect(Format.cardNumberWithSeparators.accepts("4111-1111-1111-1111"))
        #expect(!Format.cardNumberWithSeparators.accepts("4111  1111 1111 1111"))
        #expect(!Format.cardNumberWithSeparators.accepts("4111 1111 1111 1111 "))
        #expect(!Format.cardNumberWithSeparators.accepts(" 4111 1111 1111 1111"))
    }

    @Test func maskingFollowsTheBrandsGroupingAndShowsTheLastFourAtMost() {
        #expect(brands.masked("4111111111111111") == "•••• •••• •••• 1111")
        #expect(brands.masked("378282246310005") == "•••• •••••• •0005")
        #expect(brands.masked("30569309025904") == "•••• •••••• 5904")
        #expect(brands.masked("4111 1111") == "•••• ••••")
        #expect(!brands.masked("4111111111111111").contains("4111"))
    }

    /// The shipped valid credit account with another card number and security code.
    private func account(_ number: String, code: String) throws -> String {
        let url = Fixtures.examples.appendingPathComponent("payment-account/valid-credit.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object["cardNumber"] = number
        object["securityCode"] = code
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// The schema language: `cardBrandOf` derives a context, `cardBrand` tests a number, the security code follows.
    @Test func theBrandIsAContextRulesDependOn() throws {
        let amex = try account("378282246310005", code: "123")
        let report = try Fixtures.validate(amex, schema: "payment-account", tenderType: "credit")
        #expect(report.summary == ["regex@/securityCode"])
        #expect(report.errors.first?.message == "Security code must be 4 digits for American Express")
        #expect(
            try Fixtures.validate(
                account("378282246310005", code: "1234"), schema: "payment-account", tenderType: "credit"
            ).valid)
        let visa = try account("4111111111111111", code: "1234")
        #expect(
            try Fixtures.validate(visa, schema: "payment-account", tenderType: "credit").summary == [
                "regex@/securityCode"
            ])
        // The app may say the brand itself: the rules that follow it apply.
        #expect(
            try Fixtures.validate(
                visa, schema: "payment-account", context: ["brand": "american-express"], tenderType: "credit"
            ).valid)
        // Where the tender type also constrains the length, both hold: 15 digits is a credit length, not a Visa one.
        let fifteen = try Fixtures.validate(
            account("411111111111116", code: "123"), schema: "payment-account", tenderType: "credit")
        #expect(fifteen.summary == ["format@/cardNumber"])
        #expect(
            fifteen.errors.first?.message
                == "Card number must be a Visa card number of 13, 16, or 19 digits with a valid check digit")
        // A 17-digit Discover number fits its brand but not a credit card's 16.
        #expect(
            try Fixtures.validate(
                account("60111111111111113", code: "123"), schema: "payment-account", tenderType: "credit"
            ).summary
                == ["maxLength@/cardNumber"])
        #expect(
            try Fixtures.validate(
                account("60111111111111113", code: "123"), schema: "payment-account", tenderType: "debit"
            ).valid)
        // Each account of a profile by its own number.
        let profile =
            "{\"paymentAccounts\": [\(try account("378282246310005", code: "1234")), \(try account("4111111111111111", code: "1234"))]}"
            .replacingOccurrences(of: "\"cardNumber\"", with: "\"accountType\": \"credit\", \"cardNumber\"")
        let accounts = try Fixtures.validate(profile, schema: "customer-profile").summary.filter {
            $0.contains("/paymentAccounts")
        }
        #expect(accounts == ["regex@/paymentAccounts/1/securityCode"])
    }

    @Test func conditionsOnBrandsAreCheckedAgainstTheData() {
        let schema =
            #"{"id": "s", "contexts": {"brand": {"derive": [{"cardBrandOf": "/n"}]}}, "fields": [{"key": "n", "dataType": "String"}, {"key": "c", "dataType": "String", "overrides": [{"when": {"context": "brand", "equals": "amex"}, "maxLength": 4}]}]}"#
        #expect(Fixtures.problems(of: schema).contains { $0.contains(#""amex" is not a declared card brand id"#) })
        let test =
            #"{"id": "s", "fields": [{"key": "n", "dataType": "String"}, {"key": "c", "dataType": "String", "overrides": [{"when": {"field": "/n", "cardBrand": ["visa", "mastercrad"]}, "maxLength": 4}]}]}"#
        #expect(
            Fixtures.problems(of: test).contains {
                $0.contains("no card brand 'mastercrad'") && $0.contains("mastercard")
            })
        let onContext =
            #"{"id": "s", "contexts": {"b": {}}, "fields": [{"key": "c", "dataType": "String", "overrides": [{"when": {"context": "b", "cardBrand": "visa"}, "maxLength": 4}]}]}"#
        #expect(Fixtures.problems(of: onContext).contains { $0.contains("tests a request value") })
    }

    /// The JSON Schema export writes a brand test as the brand's ranges, with longer ranges of other brands excluded.
    @Test func theExportedPatternOfABrandAgreesWithDetection() throws {
        for ids in [
            ["visa"], ["mastercard"], ["elo"], ["discover", "unionpay"], ["american-express"], ["maestro"], ["troy"],
            ["verve", "elo"],
        ] {
            let pattern = try Regex(brands.pattern(for: ids))
            for number in [
                "4111111111111111", "4011780000000000", "5555555555554444", "2221000000000009", "6504050000000000",
                "6011111111111117", "6200000000000005", "6277800000000000", "378282246310005", "1234567890123",
                "5000000000000611", "6012000000000000", "6218300000000000", "6502740000000001", "6509230000000000",
                "6508370200000000", "5061001234567890", "5066991111111118", "4936980000000000",
            ] {
                let detected = brand(number).map { ids.contains($0) } ?? false
                let matched = (try pattern.wholeMatch(in: number)) != nil
                #expect(matched == detected, "\(ids) \(number)")
            }
        }
    }

    // MARK: - Code lists

    @Test func codeListsNameTheirSourceAndDate() {
        let currencies = ReferenceData.bundled.currencies
        #expect(currencies.published == "2026-01-01" && currencies.source.contains("ISO 4217"))
        let bulgarian = currencies.withdrawnCodes.first { $0.code == "BGN" }
        #expect(bulgarian?.withdrawn == "2026-01-01" && bulgarian?.replacedBy == "EUR")
        #expect(currencies.contains("XAD") && currencies.contains("XCG") && !currencies.contains("ANG"))
        #expect(ReferenceData.bundled.countries.groups["EEA"]?.count == 30)
    }

    // MARK: - Loading

    /// Reference data delivered with the schemas (a signed catalogue's `reference/<id>` documents) replaces the
    /// bundled file of its kind; the kinds it lacks stay bundled.
    @Test func aCatalogueCarriesItsOwnReferenceData() throws {
        let url = Fixtures.schemas.appendingPathComponent("reference/card-brands.json")
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: #"{"prefix": "9792"}"#, with: #"{"prefix": "9792"}, {"prefix": "1234"}"#)
        let schema = #"{"id": "s", "fields": [{"key": "n", "dataType": "String", "format": "card-number"}]}"#
        let validator = try Validator(
            source: .documents(["s": Array(schema.utf8), "reference/card-brands": Array(text.utf8)]))
        #expect(validator.schema("s")?.reference.cardBrands.brand(id: "troy") != nil)
        let prepared = try validator.prepare("s")
        #expect(try prepared.inputFeedback("1234", at: "/n").cardBrand?.id == "troy")
        #expect(validator.schema("s")?.reference.currencies.contains("EUR") == true)
        // The source lists it among its documents, so that a gateway serves it in the catalogue.
        #expect(try SchemaSource.directory(Fixtures.schemas).documents().keys.contains("reference/card-brands"))
        #expect(try !SchemaSource.documents(["reference/iso4217": []]).schemaIDs().contains("reference/iso4217"))
    }

    @Test func aBrokenReferenceFileIsReportedWhereItIsBroken() throws {
        let url = Fixtures.schemas.appendingPathComponent("reference/card-brands.json")
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: #""lengths": [15]"#, with: #""lengths": [15, 25]"#)
            .replacingOccurrences(
                of: #"{"prefix": "9792"}"#, with: #"{"prefix": "9792"}, {"from": "5", "to": "40"}, {"prefix": "37"}"#
            )
            .replacingOccurrences(
                of: #""differences": ["#,
                with: #""differences": [{"library": "stripe", "table": "type", "inputs": [], "upstream": "visa"}, "#
            )
        let schema = #"{"id": "s", "fields": [{"key": "n", "dataType": "String"}]}"#
        do {
            _ = try Validator(source: .documents(["s": Array(schema.utf8), "reference/card-brands": Array(text.utf8)]))
            Issue.record("a broken card brand file must be refused")
        } catch {
            let problems = error.problems.map { "\($0.location.pointer) \($0.message)" }
            #expect(problems.contains { $0.hasPrefix("/brands/2/lengths/1 expected 8 to 19") })
            #expect(problems.contains { $0.contains("'from' and 'to' have as many digits") })
            #expect(problems.contains { $0.contains("overlaps a range of 'american-express'") })
            // A recorded difference with braintree's tables names the library, its inputs, both answers and the source.
            #expect(problems.contains { $0.hasPrefix("/differences/0/library a difference is from 'credit-card-type") })
            #expect(problems.contains { $0.hasPrefix("/differences/0/inputs expected a non-empty array") })
            #expect(problems.contains { $0 == "/differences/0 missing 'ours'" })
            #expect(problems.contains { $0 == "/differences/0 missing 'source'" })
            #expect(
                error.problems.allSatisfy {
                    $0.location.file == "<reference/card-brands>" && $0.location.position != nil
                })
        }
        let unknown = #"{"kind": "bank-holidays", "id": "x", "title": "t", "source": "s", "published": "2026-01-01"}"#
        do {
            _ = try Validator(source: .documents(["s": Array(schema.utf8), "reference/x": Array(unknown.utf8)]))
            Issue.record("an unknown kind must be refused")
        } catch {
            #expect(error.problems.map(\.message).contains { $0.hasPrefix("unknown kind 'bank-holidays'") })
        }
    }

    /// Pointers are worked out only for a problem, by walking down from the root: a key's problem points at its member,
    /// escaped as RFC 6901 says, and a key written twice at the second.
    @Test func aProblemsPointerNamesTheMemberEscaped() throws {
        let currencies = #"""
            {"kind": "currency-codes", "id": "iso4217", "title": "t", "source": "s", "published": "2026-01-01",
             "codes": [{"code": "EUR", "name": "Euro"}, {"code": "USD", "name": "US Dollar", "a/b~c": 1, "name": "again"}]}
            """#
        let schema = #"{"id": "s", "fields": [{"key": "n", "dataType": "String"}]}"#
        do {
            _ = try Validator(
                source: .documents(["s": Array(schema.utf8), "reference/iso4217": Array(currencies.utf8)]))
            Issue.record("a broken currency file must be refused")
        } catch {
            let problems = error.problems.map {
                "\($0.location.pointer) \($0.location.position.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)"
            }
            #expect(problems.contains("/codes/1/a~1b~0c 2:82 unknown attribute 'a/b~c'"), "\(problems)")
            #expect(problems.contains("/codes/1/name 2:94 'name' is written twice"), "\(problems)")
        }
    }
}
