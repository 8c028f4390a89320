import DCEEngine
import Foundation
import Testing

/// Broken schemas fail to load or compile with the file, the JSON Pointer, the line and column, and what is wrong.
struct SchemaProblemsTests {
    private func problems(_ schema: String, extra: [String: String] = [:]) -> [SchemaProblem] {
        do {
            _ = try Fixtures.validator(["s": schema].merging(extra) { $1 })
            return []
        } catch let error as SchemaError {
            return error.problems
        } catch {
            return []
        }
    }

    @Test func notJSON() throws {
        let found = problems("{\"id\": \"s\",\n \"fields\": [}")
        #expect(found.map(\.code) == [.json])
        #expect(found.first?.location.position?.line == 2)
        #expect(found.first?.description.hasPrefix("<s>:2:13: error:") == true)
    }

    @Test func unknownAttributesGetADidYouMean() throws {
        let found = problems(
            "{\"id\": \"s\", \"fields\": [\n  {\"key\": \"pin\", \"dataType\": \"String\", \"maxLenght\": 4}\n]}")
        #expect(found.count == 1)
        let problem = try #require(found.first)
        #expect(problem.code == .unknownAttribute)
        #expect(problem.location.pointer == "/fields/0/maxLenght")
        #expect(problem.location.position?.line == 2 && problem.location.position?.column == 40)
        #expect(problem.message == "unknown attribute 'maxLenght' (did you mean 'maxLength'?)")
    }

    @Test(arguments: [
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "Strng"}]}"#, SchemaProblem.Code.invalidAttribute,
            "/fields/0/dataType"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "minLength": 5, "maxLength": 3}]}"#,
            .invalidRange, "/fields/0"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "additionalDataValidations": [{"regex": "(ab"}]}]}"#,
            .invalidRegex, "/fields/0/additionalDataValidations/0/regex"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String"}, {"key": "a", "dataType": "Integer"}]}"#,
            .duplicate, "/fields/1"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "order": 1}, {"key": "b", "dataType": "String", "order": 1}]}"#,
            .duplicate, "/fields/1"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "maxLength": 2, "defaultValue": "abc"}]}"#,
            .invalidDefault, "/fields/0"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "Integer", "defaultValue": "1"}]}"#, .invalidDefault,
            "/fields/0"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "format": "iso-4217"}]}"#, .unknownFormat,
            "/fields/0/format"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "Integer", "maxLength": 3}]}"#, .inapplicableAttribute,
            "/fields/0/maxLength"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "overrides": [{"when": {"context": "region", "equals": "US"}, "required": true}]}]}"#,
            .unknownContext, "/fields/0/overrides/0/when"
        ),
        (
            #"{"id": "s", "contexts": {"region": {"values": ["US"]}}, "fields": [{"key": "a", "dataType": "String", "overrides": [{"when": {"context": "region", "equals": "CA"}, "required": true}]}]}"#,
            .unknownContext, "/fields/0/overrides/0/when"
        ),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "overrides": [{"when": {"field": "/b", "present": true}, "required": true}]}]}"#,
            .unknownField, "/fields/0/overrides/0/when"
        ),
        (##"{"id": "s", "fields": [{"key": "a", "ref": "#/definitions/Nope"}]}"##, .unknownReference, "/fields/0/ref"),
        (
            ##"{"id": "s", "definitions": {"A": {"ref": "#/definitions/B"}, "B": {"ref": "#/definitions/A"}}, "fields": [{"key": "a", "ref": "#/definitions/A"}]}"##,
            .referenceCycle, "/definitions/B/ref"
        ),
        (#"{"id": "s", "fields": [{"key": "a", "ref": "missing-schema"}]}"#, .unknownReference, "/fields/0/ref"),
        (#"{"id": "other", "fields": []}"#, .invalidAttribute, "/id"),
        (#"{"id": "s", "kind": "reply", "fields": []}"#, .invalidAttribute, "/kind"),
        (#"{"id": "s", "fields": [{"key": "a", "dataType": "Array"}]}"#, .missingAttribute, "/fields/0"),
        (
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "overrides": [{"required": true}]}]}"#,
            .missingAttribute, "/fields/0/overrides/0"
        ),
        // Provisioning is decided before the payload is read: its context comes from the caller alone.
        (
            #"{"id": "s", "contexts": {"operation": {"values": ["provision"], "derive": [{"when": {"field": "/a", "present": true}, "value": "provision"}]}}, "fields": [{"key": "a", "dataType": "String"}]}"#,
            .invalidAttribute, "/contexts/operation/derive/0"
        ),
        (
            #"{"id": "s", "contexts": {"operation": {"values": ["provision"]}}, "fields": [{"key": "a", "dataType": "Object", "context": {"operation": "provision"}, "fields": []}]}"#,
            .invalidAttribute, "/fields/0/context/operation"
        ),
    ])
    func brokenSchemasAreRefusedWithAPreciseLocation(schema: String, code: SchemaProblem.Code, pointer: String) {
        let found = problems(schema)
        #expect(found.contains { $0.code == code && $0.location.pointer == pointer }, "\(found)")
        #expect(found.allSatisfy { $0.location.position != nil })
    }

    @Test func aResponseSchemaMustSayItIsOneSoThatAGatewayNeverTakesItAsARequest() throws {
        let request = #"{"id": "s", "responseSchema": "r", "fields": []}"#
        let found = problems(request, extra: ["r": #"{"id": "r", "fields": []}"#])
        #expect(found.map(\.code) == [.invalidAttribute])
        #expect(found.first?.location.pointer == "/kind")
        #expect(found.first?.message.contains("'r' is the responseSchema of 's'") == true)
        #expect(problems(request, extra: ["r": #"{"id": "r", "kind": "response", "fields": []}"#]).isEmpty)
        let validator = try Fixtures.validator(["s": request, "r": #"{"id": "r", "kind": "response", "fields": []}"#])
        #expect(validator.schema("s")?.kind == .request)
        #expect(validator.schema("r")?.kind == .response)
    }

    @Test func anAutofillHintIsOneOfHTMLsTokens() throws {
        let found = problems(
            #"{"id": "s", "fields": [{"key": "cvv", "dataType": "String", "autofill": "cc-cvc", "placeholder": 3}]}"#)
        #expect(Set(found.map(\.location.pointer)) == ["/fields/0/autofill", "/fields/0/placeholder"])
        #expect(
            found.first { $0.location.pointer == "/fields/0/autofill" }?.message
                == "unknown autofill token 'cc-cvc' (did you mean 'cc-csc'?)")
        #expect(problems(#"{"id": "s", "fields": [{"key": "pin", "dataType": "String", "autofill": "off"}]}"#).isEmpty)
    }

    @Test func aMissingKeyIsReportedAtItsField() throws {
        let found = problems("{\"id\": \"s\", \"fields\": [\n  {\"dataType\": \"String\"}\n]}")
        let problem = try #require(found.first)
        #expect(problem.code == .missingAttribute && problem.location.pointer == "/fields/0/key")
        #expect(problem.location.position?.line == 2 && problem.location.position?.column == 3)
    }

    @Test func anOverrideMayForbidARequiredFieldButOneSetCannotSayBoth() {
        let overridden =
            #"{"id": "s", "contexts": {"r": {}}, "fields": [{"key": "a", "dataType": "String", "required": true, "overrides": [{"when": {"context": "r", "equals": "x"}, "forbidden": true}]}]}"#
        #expect(problems(overridden).isEmpty)
        let both = #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "required": true, "forbidden": true}]}"#
        #expect(problems(both).map(\.code) == [.invalidAttribute])
    }

    @Test func collectsEveryProblemNotOnlyTheFirst() {
        let schema =
            #"{"id": "s", "fields": [{"key": "a", "dataType": "Strin"}, {"key": "b", "dataType": "String", "format": "uuidd"}, {"kye": "c"}]}"#
        let found = problems(schema)
        #expect(found.count >= 3, "\(found)")
    }

    @Test func unknownSchemaIdsSuggestTheClosestOne() throws {
        do {
            _ = try Validator(source: .directory(Fixtures.schemas), schemaIDs: ["card-creat"])
            Issue.record("expected an unknown schema")
        } catch {
            #expect(error.problems.first?.code == .unknownSchema)
            #expect(error.problems.first?.message.contains("did you mean 'card-create'?") == true)
        }
    }

    @Test func theBundledSchemasAreTheRepositorysSchemas() throws {
        let bundled = try Validator()
        #expect(bundled.schemaIDs == Fixtures.validator.schemaIDs)
        #expect(bundled.schemaIDs.contains("card-create") && bundled.schemaIDs.contains("card-tokenize"))
    }
}
