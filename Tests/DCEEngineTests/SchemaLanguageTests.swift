import DCEEngine
import Foundation
import Testing

/// The schema language's mechanisms, each on a small inline schema.
struct SchemaLanguageTests {
    private func validate(
        _ schema: String, _ json: String, context: [String: String] = [:], tenderType: String? = nil,
        extra: [String: String] = [:]
    ) throws -> ValidationReport {
        let validator = try Fixtures.validator(["s": schema].merging(extra) { $1 })
        return try validator.validate(json: Array(json.utf8), schema: "s", context: context, tenderType: tenderType)
    }

    @Test(arguments: [
        "^(a+)+$", "(\\w*)*x", "^(\\d)\\1$", "^(?=a)a$", "^a(?!b)", "(?<=a)b", "^(a|(?R))$", "^(?1)(a)$",
        "^(?C1)a$", "^(*ACCEPT)a", "a\\g<0>?",
    ])
    func untrustedSchemasRefuseRegexesThatCanBacktrackWithoutBound(pattern: String) throws {
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\")
        let schema =
            #"{"id": "s", "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "\#(escaped)"}]}]}"#
        do {
            _ = try Fixtures.validator(["s": schema])
            Issue.record("\(pattern) was accepted")
        } catch let error as SchemaError {
            #expect(error.problems.map(\.code) == [.unsafeRegex], "\(pattern): \(error)")
            #expect(error.problems.first?.location.pointer == "/fields/0/additionalDataValidations/0/regex")
        }
        let trusted = schema.replacingOccurrences(of: #"{"id": "s", "#, with: #"{"id": "s", "trustedPatterns": true, "#)
        #expect(throws: Never.self) { try Fixtures.validator(["s": trusted]) }
    }

    @Test func digitClassesAreASCIIUnlessAValidationAsksForUnicode() throws {
        let ascii =
            #"{"id": "s", "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "^\\d{4}$"}]}]}"#
        let unicode = ascii.replacingOccurrences(of: #""regex""#, with: #""unicode": true, "regex""#)
        let arabic = #"{"v": "\u0661\u0662\u0663\u0664"}"#
        #expect(try validate(ascii, arabic).summary == ["regex@/v"])
        #expect(try validate(unicode, arabic).valid)
        // $ does not match before a final newline
        #expect(try validate(ascii, #"{"v": "2024\n"}"#).summary == ["regex@/v"])
    }

    @Test func dataTypesAreChecked() throws {
        let schema = #"""
            {"id": "s", "fields": [
              {"key": "s", "dataType": "String"}, {"key": "i", "dataType": "Integer"}, {"key": "n", "dataType": "Number"},
              {"key": "b", "dataType": "Boolean"}, {"key": "d", "dataType": "Date"}, {"key": "t", "dataType": "DateTime"},
              {"key": "o", "dataType": "Object", "fields": []}, {"key": "a", "dataType": "Array", "items": {"dataType": "Integer"}}
            ]}
            """#
        let good =
            #"{"s": "x", "i": 3.0, "n": 1.5e3, "b": false, "d": "2024-02-29", "t": "2024-02-29T23:59:60.5+01:00", "o": {}, "a": [1, 2e2]}"#
        #expect(try validate(schema, good).valid)
        let bad =
            #"{"s": 1, "i": 1.5, "n": "1", "b": "true", "d": "2023-02-29", "t": "2024-02-29 10:00:00", "o": [], "a": [1, 1.1, "2"]}"#
        #expect(
            try validate(schema, bad).summary == [
                "type@/a/1", "type@/a/2", "type@/b", "format@/d", "type@/i", "type@/n", "type@/o", "type@/s",
                "format@/t",
            ])
    }

    @Test func numbersAreComparedExactly() throws {
        let schema =
            #"{"id": "s", "fields": [{"key": "n", "dataType": "Integer", "minimum": 0, "maximum": 9999999999999999999}]}"#
        #expect(try validate(schema, #"{"n": 9999999999999999999}"#).valid)
        #expect(try validate(schema, #"{"n": 10000000000000000000}"#).summary == ["maximum@/n"])
        #expect(try validate(schema, #"{"n": -1}"#).summary == ["minimum@/n"])
        #expect(try validate(schema, #"{"n": -0}"#).valid)
    }

    @Test func absentNullAndAValueAreThreeThings() throws {
        let schema = #"""
            {"id": "s", "fields": [
              {"key": "plain", "dataType": "String"},
              {"key": "removable", "dataType": "String", "nullable": true},
              {"key": "needed", "dataType": "String", "required": true}
            ]}
            """#
        #expect(try validate(schema, #"{"needed": "x"}"#).valid)
        #expect(try validate(schema, #"{"needed": "x", "removable": null}"#).valid)
        #expect(try validate(schema, #"{"needed": "x", "plain": null}"#).summary == ["null@/plain"])
        #expect(try validate(schema, #"{"needed": null}"#).summary == ["required@/needed"])
        #expect(try validate(schema, #"{}"#).summary == ["required@/needed"])
    }

    @Test func conditionsCombineFieldsAndContexts() throws {
        let schema = #"""
            {"id": "s", "contexts": {"platform": {"values": ["ios", "android"]}},
             "fields": [
              {"key": "kind", "dataType": "String"},
              {"key": "note", "dataType": "String"},
              {"key": "x", "dataType": "String", "overrides": [
                {"when": {"any": [{"field": "/kind", "in": ["A", "B"]}, {"context": "platform", "equals": "ios"}]}, "required": true},
                {"when": {"all": [{"field": "/note", "present": true}, {"not": {"field": "/kind", "matches": "^Z"}}]}, "enum": ["ok"]},
                {"when": {"field": "/note", "null": true}, "forbidden": true}
              ]}
            ]}
            """#
        #expect(try validate(schema, #"{}"#).valid)
        #expect(try validate(schema, #"{"kind": "B"}"#).summary == ["required@/x"])
        #expect(try validate(schema, #"{}"#, context: ["platform": "ios"]).summary == ["required@/x"])
        #expect(try validate(schema, #"{}"#, context: ["platform": "android"]).valid)
        #expect(try validate(schema, #"{"note": "n", "x": "no"}"#).summary == ["enum@/x"])
        #expect(try validate(schema, #"{"note": "n", "kind": "Zed", "x": "no"}"#).valid)
        #expect(try validate(schema, #"{"note": null, "x": "ok"}"#).summary == ["null@/note", "forbidden@/x"])
    }

    /// Conditions run as a flat instruction array in which `all` and `any` skip the rest of their operands once
    /// decided; random nested conditions must give the same verdicts as a plain recursive reading of them.
    @Test func nestedConditionsAgreeWithARecursiveReading() throws {
        indirect enum Condition {
            case all([Condition])
            case any([Condition])
            case not(Condition)
            case equals(field: String, value: String)
            case oneOf(field: String, values: [String])
            case present(String)
            case absent(String)
            case context(String)

            var json: String {
                switch self {
                case .all(let parts): #"{"all": [\#(parts.map(\.json).joined(separator: ","))]}"#
                case .any(let parts): #"{"any": [\#(parts.map(\.json).joined(separator: ","))]}"#
                case .not(let part): #"{"not": \#(part.json)}"#
                case .equals(let field, let value): #"{"field": "/\#(field)", "equals": "\#(value)"}"#
                case .oneOf(let field, let values):
                    #"{"field": "/\#(field)", "in": ["\#(values.joined(separator: #"",""#))"]}"#
                case .present(let field): #"{"field": "/\#(field)", "present": true}"#
                case .absent(let field): #"{"field": "/\#(field)", "absent": true}"#
                case .context(let value): #"{"context": "mode", "equals": "\#(value)"}"#
                }
            }

            func holds(_ payload: [String: String], mode: String?) -> Bool {
                switch self {
                case .all(let parts): parts.allSatisfy { $0.holds(payload, mode: mode) }
                case .any(let parts): parts.contains { $0.holds(payload, mode: mode) }
                case .not(let part): !part.holds(payload, mode: mode)
                case .equals(let field, let value): payload[field] == value
                case .oneOf(let field, let values): payload[field].map(values.contains) ?? false
                case .present(let field): payload[field] != nil
                case .absent(let field): payload[field] == nil
                case .context(let value): mode == value
                }
            }
        }
        var random = SplitMix(state: 7)
        func condition(depth: Int) -> Condition {
            let field = ["a", "b"].randomElement(using: &random)!
            let choice = Int.random(in: 0..<(depth < 3 ? 8 : 5), using: &random)
            switch choice {
            case 0: return .equals(field: field, value: ["x", "y"].randomElement(using: &random)!)
            case 1: return .oneOf(field: field, values: Bool.random(using: &random) ? ["x"] : ["x", "y"])
            case 2: return Bool.random(using: &random) ? .present(field) : .absent(field)
            case 3: return .context(["on", "off"].randomElement(using: &random)!)
            case 4: return .equals(field: field, value: "y")
            case 5: return .all((0..<Int.random(in: 1...3, using: &random)).map { _ in condition(depth: depth + 1) })
            case 6: return .any((0..<Int.random(in: 1...3, using: &random)).map { _ in condition(depth: depth + 1) })
            default: return .not(condition(depth: depth + 1))
            }
        }
        let values: [String?] = [nil, "x", "y"]
        for _ in 0..<40 {
            let conditions = (0..<3).map { _ in condition(depth: 0) }
            // Three overrides on one field: the verdict of each shows in its own rule.
            let schema = #"""
                {"id": "s", "contexts": {"mode": {"values": ["on", "off"]}},
                 "fields": [{"key": "a", "dataType": "String"}, {"key": "b", "dataType": "String"},
                  {"key": "t", "dataType": "String", "overrides": [
                    {"when": \#(conditions[0].json), "required": true},
                    {"when": \#(conditions[1].json), "minLength": 5},
                    {"when": \#(conditions[2].json), "forbidden": true}]}]}
                """#
            let validator = try Fixtures.validator(["s": schema])
            for a in values {
                for b in values {
                    for mode in [nil, "on", "off"] {
                        var payload: [String: String] = [:]
                        payload["a"] = a
                        payload["b"] = b
                        let context = mode.map { ["mode": $0] } ?? [:]
                        let fields = payload.sorted { $0.key < $1.key }.map { #""\#($0.key)": "\#($0.value)""# }
                        for target in [nil, "abc"] {
                            let members = fields + (target.map { [#""t": "\#($0)""#] } ?? [])
                            let json = "{" + members.joined(separator: ",") + "}"
                            let report = try validator.validate(json: Array(json.utf8), schema: "s", context: context)
                            let rules = Set(report.errors.map(\.rule.rawValue))
                            let forbidden = conditions[2].holds(payload, mode: mode)
                            let expected: Set<String> =
                                forbidden
                                ? (target == nil ? [] : ["forbidden"])
                                : target == nil
                                    ? (conditions[0].holds(payload, mode: mode) ? ["required"] : [])
                                    : (conditions[1].holds(payload, mode: mode) ? ["minLength"] : [])
                            #expect(rules == expected, "\(json) mode \(mode ?? "none"): \(conditions.map(\.json))")
                        }
                    }
                }
            }
        }
    }

    /// A field with more overrides than have their combinations computed ahead (eight) gets its rules computed per
    /// request: the same rules, in the same order, with their own messages.
    @Test func moreOverridesThanAreComputedAheadStillApplyInOrder() throws {
        // Override i holds when k is at least i, and allows 10 - i characters; the last that holds wins.
        let overrides = (0..<10).map { index in
            let values = (index..<10).map { #""\#($0)""# }.joined(separator: ", ")
            return #"{"when": {"field": "/k", "in": [\#(values)]}, "maxLength": \#(10 - index)}"#
        }
        let required =
            #"{"when": {"field": "/k", "equals": "9"}, "required": true, "message": "v is needed when k is 9"}"#
        let schema = #"""
            {"id": "s", "fields": [{"key": "k", "dataType": "String"},
              {"key": "v", "dataType": "String", "overrides": [\#((overrides + [required]).joined(separator: ", "))]}]}
            """#
        #expect(try validate(schema, #"{"k": "0", "v": "abcd"}"#).valid)
        #expect(try validate(schema, #"{"k": "6", "v": "abcd"}"#).valid)
        let seven = try validate(schema, #"{"k": "7", "v": "abcd"}"#)
        #expect(seven.summary == ["maxLength@/v"])
        #expect(seven.errors.first?.message.contains("3") == true, "\(seven.errors)")
        let nine = try validate(schema, #"{"k": "9"}"#)
        #expect(nine.summary == ["required@/v"])
        #expect(nine.errors.first?.message == "v is needed when k is 9")
        #expect(try validate(schema, #"{"k": "9", "v": "ab"}"#).summary == ["maxLength@/v"])
    }

    @Test func contextsCanBeDerivedAndAbsentTested() throws {
        let schema = #"""
            {"id": "s", "contexts": {"addressUse": {"values": ["billing", "profile"],
               "derive": [{"when": {"field": "/billingFor", "present": true}, "value": "billing"}]}},
             "fields": [
              {"key": "billingFor", "dataType": "String"},
              {"key": "zipCode", "dataType": "String", "required": true,
               "description": "Seed 004 PDMetaData: a zip code of 9 digits for a billing address, 5 for a profile address.",
               "overrides": [
                 {"when": {"context": "addressUse", "equals": "billing"}, "additionalDataValidations": [{"regex": "^[0-9]{9}$"}]},
                 {"when": {"context": "addressUse", "equals": "profile"}, "additionalDataValidations": [{"regex": "^[0-9]{5}$"}]},
                 {"when": {"context": "addressUse", "absent": true}, "additionalDataValidations": [{"regex": "^[0-9]{5}([0-9]{4})?$"}]}
               ]}
            ]}
            """#
        #expect(try validate(schema, #"{"zipCode": "123456789"}"#, context: ["addressUse": "billing"]).valid)
        #expect(
            try validate(schema, #"{"zipCode": "12345"}"#, context: ["addressUse": "billing"]).summary == [
                "regex@/zipCode"
            ])
        #expect(try validate(schema, #"{"zipCode": "12345"}"#, context: ["addressUse": "profile"]).valid)
        #expect(
            try validate(schema, #"{"zipCode": "123456789"}"#, context: ["addressUse": "profile"]).summary == [
                "regex@/zipCode"
            ])
        #expect(try validate(schema, #"{"zipCode": "12345", "billingFor": "card"}"#).summary == ["regex@/zipCode"])
        #expect(try validate(schema, #"{"zipCode": "123456789"}"#).valid)
    }

    @Test func tenderTypesOverrideAFieldPerPaymentType() throws {
        let schema = #"""
            {"id": "s", "tenderTypes": ["credit", "debit", "gift"], "fields": [
              {"key": "cardNumber", "dataType": "String", "required": true, "minLength": 12, "maxLength": 19, "format": "luhn",
               "maskingRequired": true,
               "tenderTypes": {"gift": {"format": [], "minLength": 16, "maxLength": 16, "additionalDataValidations": [{"regex": "^[0-9]+$"}]}}},
              {"key": "cvv", "dataType": "String", "tenderTypes": {"credit": {"required": true}, "gift": {"forbidden": true}}}
            ]}
            """#
        #expect(try validate(schema, #"{"cardNumber": "4111111111111111", "cvv": "123"}"#, tenderType: "credit").valid)
        #expect(
            try validate(schema, #"{"cardNumber": "4111111111111111"}"#, tenderType: "credit").summary == [
                "required@/cvv"
            ])
        #expect(try validate(schema, #"{"cardNumber": "4111111111111111"}"#, tenderType: "debit").valid)
        #expect(
            try validate(schema, #"{"cardNumber": "4111111111111112"}"#, tenderType: "debit").summary == [
                "format@/cardNumber"
            ])
        #expect(
            try validate(schema, #"{"cardNumber": "6006491234567890", "cvv": "1"}"#, tenderType: "gift").summary == [
                "forbidden@/cvv"
            ])
        #expect(
            try validate(schema, #"{"cardNumber": "60064912345678"}"#, tenderType: "gift").summary == [
                "minLength@/cardNumber"
            ])
    }

    @Test func nestedObjectsArraysAndSharedDefinitions() throws {
        let schema = ##"""
            {"id": "s", "definitions": {
               "Phone": {"dataType": "String", "name": "Phone", "additionalDataValidations": [{"regex": "^\\+[0-9]+$"}]},
               "Contact": {"dataType": "Object", "fields": [
                 {"key": "phone", "ref": "#/definitions/Phone", "required": true},
                 {"key": "kind", "dataType": "String", "enum": ["home", "work"]},
                 {"key": "extension", "dataType": "String", "overrides": [{"when": {"field": "0/kind", "equals": "work"}, "required": true}]}
               ]}},
             "fields": [
               {"key": "contacts", "dataType": "Array", "minItems": 1, "maxItems": 2, "items": {"ref": "#/definitions/Contact"}},
               {"key": "address", "ref": "addr", "name": "Home address"}
             ]}
            """##
        let addr =
            #"{"id": "addr", "name": "Address", "fields": [{"key": "zip", "dataType": "String", "required": true}], "additionalFields": true}"#
        let good = #"{"contacts": [{"phone": "+359", "kind": "home"}], "address": {"zip": "1000", "anything": 1}}"#
        #expect(try validate(schema, good, extra: ["addr": addr]).valid)
        let bad = #"{"contacts": [{"phone": "0888"}, {"kind": "work", "phone": "+1"}, {}], "address": {}}"#
        let report = try validate(schema, bad, extra: ["addr": addr])
        #expect(
            report.summary == [
                "required@/address/zip", "maxItems@/contacts", "regex@/contacts/0/phone",
                "required@/contacts/1/extension",
                "required@/contacts/2/phone",
            ])
        #expect(try validate(schema, #"{"contacts": []}"#, extra: ["addr": addr]).summary == ["minItems@/contacts"])
    }

    @Test func aCatastrophicRegexGivesUpAtItsLimitInsteadOfHanging() throws {
        // Trusted, so that it compiles: the point is that even then every match is bounded.
        let schema =
            #"{"id": "s", "trustedPatterns": true, "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "^(a+)+$"}]}]}"#
        let hostile = String(repeating: "a", count: 50_000) + "!"
        let clock = ContinuousClock()
        var report: ValidationReport?
        let elapsed = try clock.measure { report = try validate(schema, #"{"v": "\#(hostile)"}"#) }
        #expect(report?.summary == ["regexLimit@/v"])
        #expect(try validate(schema, #"{"v": "aaaa"}"#).valid)
        #expect(elapsed < .seconds(10))  // a bound only a hang would cross, not a speed target
    }
}
