import DCEExport
import DCEForms
import DCEPattern
import Foundation
import Testing

@testable import DCEEngine

/// `CONTRIBUTING.md`'s "A new rule kind", followed in a test target: a kind written in one file, registered beside
/// the built-in ones, read from a schema, checked against the object's members, judged in a payload with a message
/// and a pointer, and exported, without a line of the engine changed. In the engine, the registration is the line in
/// ``ObjectRuleKinds/builtIn``; here it is the `ruleKinds` a `Validator` is built with.
@Suite struct NewRuleKindTests {
    /// `"givenTogether": ["month", "year"]`: members that are given together or not at all (an expiry's month and
    /// year, a PIN and its confirmation). A missing one is required once any other is given.
    struct GivenTogetherRule: ObjectRuleKind {
        /// The members, by their place among the object's fields.
        let members: [Int]

        static let attribute = "givenTogether"

        static func decode(_ entry: AttributeEntry, with reader: inout some AttributeReader) -> [String]? {
            reader.strings(entry)
        }

        static func compile(
            _ definition: [String], members: [ObjectRuleMember], object: String,
            report: (ObjectRuleProblem, String) -> Void
        ) -> Self? {
            var places: [Int] = []
            for key in definition {
                guard let place = members.firstIndex(where: { $0.key == key }) else {
                    report(
                        .unknownMember,
                        "'givenTogether' names '\(key)', which is not a field of \(object)"
                            + Suggestion.hint(for: key, in: members.compactMap(\.key)))
                    continue
                }
                if places.contains(place) { report(.duplicate, "'givenTogether' names '\(key)' twice") }
                places.append(place)
            }
            guard places.count >= 2 else {
                report(.invalid, "'givenTogether' needs two members or more")
                return nil
            }
            return Self(members: places)
        }

        func evaluate(
            _ object: ObjectRuleMembers, reference: ReferenceData, into findings: inout [ObjectRuleFinding]
        ) {
            guard members.contains(where: { object.value($0) != .missing }) else { return }
            for member in members where object.value(member) == .missing {
                findings.append(ObjectRuleFinding(rule: .required, member: member))
            }
        }

        func message(for finding: ObjectRuleFinding, writer: some RuleMessageWriter, reference: ReferenceData)
            -> String
        {
            writer.text(.required, variant: nil, .init(name: writer.name))
        }

        func export(keys: [String?], reference: ReferenceData) -> [SchemaValue] {
            let names = members.compactMap { keys[$0] }.map(SchemaValue.string)
            let anyGiven = SchemaValue.object([
                .init(key: "anyOf", value: .array(names.map { .object([.init(key: "required", value: .array([$0]))]) }))
            ])
            return [
                .object([
                    .init(key: "if", value: anyGiven),
                    .init(key: "then", value: .object([.init(key: "required", value: .array(names))])),
                ])
            ]
        }
    }

    static let schema = #"""
        {"id": "expiring", "fields": [
          {"key": "expiry", "dataType": "Object", "givenTogether": ["month", "year"], "fields": [
            {"key": "month", "name": "Expiry month", "dataType": "String", "minLength": 2, "maxLength": 2},
            {"key": "year", "name": {"en": "Expiry year", "de": "Ablaufjahr"}, "dataType": "String", "nullable": true}]}]}
        """#

    private func validator(_ schema: String = schema, withTheKind: Bool = true) throws(SchemaError) -> Validator {
        try Validator(
            source: .documents(["expiring": Array(schema.utf8)]), schemaIDs: nil, matchLimits: .default,
            now: { Date() }, ruleKinds: ObjectRuleKinds.builtIn + (withTheKind ? [GivenTogetherRule.self] : []))
    }

    private func errors(_ payload: String, language: String = "en") throws -> [String] {
        let report = try validator().prepare("expiring", messages: .bundled(language: language)).validate(
            json: Array(payload.utf8))
        return report.errors.map { "\($0.path) \($0.rule.rawValue) \($0.line ?? 0):\($0.column ?? 0): \($0.message)" }
    }

    @Test func withoutTheKindItsAttributeIsUnknown() {
        #expect {
            _ = try validator(withTheKind: false)
        } throws: { error in
            (error as? SchemaError)?.problems.contains {
                $0.code == .unknownAttribute && $0.location.pointer == "/fields/0/givenTogether"
            } == true
        }
    }

    @Test func theKindJudgesThePayloadWithItsMessageAndPointer() throws {
        #expect(try errors(#"{"expiry": {"month": "01", "year": "2030"}}"#).isEmpty)
        #expect(try errors(#"{"expiry": {}}"#).isEmpty)
        #expect(try errors(#"{}"#).isEmpty)
        #expect(try errors(#"{"expiry": {"month": "01"}}"#) == ["/expiry/year required 1:12: Expiry year is required"])
        #expect(try errors(#"{"expiry": {"year": "2030"}}"#, language: "de").count == 1)
        // A member present as null is given: the kind decides what counts, here presence alone.
        #expect(try errors(#"{"expiry": {"year": null}}"#).map { $0.prefix(21) } == ["/expiry/month require"])
    }

    @Test func aMemberThatBrokeItsOwnRuleIsJudgedByItsOwnRuleOnce() throws {
        let found = try errors(#"{"expiry": {"month": "1"}}"#)
        #expect(
            found.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                "/expiry/month minLength", "/expiry/year required",
            ])
    }

    @Test func theKindChecksItsMembersWhenTheSchemaIsCompiled() {
        let broken = Self.schema.replacingOccurrences(of: #"["month", "year"]"#, with: #"["month", "yeer"]"#)
        #expect {
            _ = try validator(broken)
        } throws: { error in
            let problems = (error as? SchemaError)?.problems ?? []
            return problems.map(\.code) == [.unknownField, .invalidAttribute]
                && problems[0].message.contains("'yeer', which is not a field of 'expiry' (did you mean 'year'?)")
                && problems.allSatisfy { $0.location.pointer == "/fields/0/givenTogether" }
        }
        let notAList = Self.schema.replacingOccurrences(of: #"["month", "year"]"#, with: #""month""#)
        #expect {
            _ = try validator(notAList)
        } throws: { error in
            (error as? SchemaError)?.problems.map { "\($0.code) \($0.location.pointer)" } == [
                "invalidAttribute /fields/0/givenTogether"
            ]
        }
    }

    @Test func theKindIsExportedAsJSONSchema() throws {
        let export = try #require(try validator().schema("expiring")).exportJSONSchema()
        let text = export.document.description
        #expect(text.contains(#""givenTogether-expiry""#))
        #expect(text.contains(#"{"if":{"anyOf":[{"required":["month"]},{"required":["year"]}]}"#))
    }

    @Test func formsAndTypingAskTheKindAndGetNothingWhereItSaysNothing() throws {
        let schema = try #require(try validator().schema("expiring"))
        let form = try schema.describeForm()
        let year = try #require(form.groups.flatMap(\.fields).first { $0.path == "/expiry/year" })
        #expect(!year.required)
        #expect(year.address == nil)
        let prepared = try validator().prepare("expiring")
        #expect(try prepared.inputFeedback("20", at: "/expiry/year", given: ["/expiry/month": "01"]).verdict == .valid)
    }
}
