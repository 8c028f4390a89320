import Foundation
import Testing

@testable import DCECompatibility
@testable import DCEEngine

/// Every change id of ``SchemaChange/kinds``, made on copies of the shipped schemas, in a request schema and in a
/// response schema: found with its id, direction, breaking and severity as ``SchemaChange/assess(_:schema:)`` says,
/// and at a line and column of the schema; each request break with a witness checked here against both versions.
struct ChangeKindTests {
    /// One change made on a copy: the attributes set in both versions (the old state), then those the new version
    /// sets on top (`null` removes an attribute); `field` `nil` for the schema itself.
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var file: String
        var field: String?
        var old: String
        var new: String
        var testDescription: String { "\(id) in \(file)" }

        init(_ id: String, _ file: String, _ field: String?, old: String = "{}", new: String) {
            (self.id, self.file, self.field, self.old, self.new) = (id, file, field, old, new)
        }
    }

    /// The attribute changes, each on a request schema's field and a response schema's.
    static let attributeCases: [Case] = [
        ("card-create.json", "externalId", "card-list-query.json", "limit", "card-list-query.json", "status"),
        ("card-response.json", "customerId", "card-response.json", "customerId", "card-response.json", "tokenizations"),
    ].flatMap { file, text, numberFile, number, listFile, list -> [Case] in
        let integer = #""dataType": "Integer", "format": null, "enum": null"#
        return [
            Case("type-changed", file, text, new: #"{"dataType": "Integer"}"#),
            Case("required-added", file, text, old: #"{"nullable": null}"#, new: #"{"required": true}"#),
            Case(
                "required-removed", file, text, old: #"{"required": true, "nullable": null}"#,
                new: #"{"required": null}"#),
            Case("forbidden-added", file, text, new: #"{"forbidden": true}"#),
            Case("forbidden-removed", file, text, old: #"{"forbidden": true}"#, new: #"{"forbidden": null}"#),
            Case("nullable-removed", file, text, old: #"{"nullable": true}"#, new: #"{"nullable": false}"#),
            Case("nullable-added", file, text, old: #"{"nullable": false}"#, new: #"{"nullable": true}"#),
        ]
            + bound("max-length", "maxLength", upper: true, file, text, tight: 5, was: 60, loose: 80)
            + bound("min-length", "minLength", upper: false, file, text, tight: 50, was: 2, loose: 1)
            + bound(
                "maximum", "maximum", upper: true, numberFile, number, base: integer, tight: 2, was: 500, loose: 900)
            + bound("minimum", "minimum", upper: false, numberFile, number, base: integer, tight: 3, was: 1, loose: 0)
            + bound("max-items", "maxItems", upper: true, listFile, list, tight: 1, was: 9, loose: 12)
            + bound("min-items", "minItems", upper: false, listFile, list, tight: 8, was: 2, loose: 1)
            + [
                Case("enum-added", file, text, new: #"{"enum": ["ZZZ"]}"#),
                Case("enum-value-removed", file, text, old: #"{"enum": ["A", "B"]}"#, new: #"{"enum": ["A"]}"#),
                Case("enum-value-added", file, text, old: #"{"enum": ["A"]}"#, new: #"{"enum": ["A", "B"]}"#),
                Case("enum-removed", file, text, old: #"{"enum": ["A", "B"]}"#, new: #"{"enum": null}"#),
                Case("format-added", file, text, new: #"{"format": "hex"}"#),
                Case("format-changed", file, text, old: #"{"format": "uuid"}"#, new: #"{"format": "hex"}"#),
                Case("format-removed", file, text, old: #"{"format": "uuid"}"#, new: #"{"format": null}"#),
                Case("pattern-added", file, text, new: #"{"additionalDataValidations": [{"regex": "^[0-9]+$"}]}"#),
                Case(
                    "pattern-changed", file, text,
                    old: #"{"additionalDataValidations": [{"regex": "^[A-Za-z0-9-]+$"}]}"#,
                    new: #"{"additionalDataValidations": [{"regex": "^[0-9]+$"}]}"#),
                Case(
                    "pattern-removed", file, text,
                    old: #"{"additionalDataValidations": [{"regex": "^[A-Za-z0-9-]+$"}]}"#,
                    new: #"{"additionalDataValidations": null}"#),
                Case(
                    "unknown-fields-disallowed", file, text,
                    old:
                        #"{"dataType": "Object", "fields": [{"key": "a", "dataType": "String"}], "additionalFields": true}"#,
                    new: #"{"additionalFields": false}"#),
                Case(
                    "unknown-fields-allowed", file, text,
                    old:
                        #"{"dataType": "Object", "fields": [{"key": "a", "dataType": "String"}], "additionalFields": false}"#,
                    new: #"{"additionalFields": true}"#),
                Case(
                    "exists-in-added", file, text,
                    new: #"{"existsIn": {"schema": "card-programs-response", "pointer": "/programs/*/programName"}}"#),
                Case(
                    "exists-in-changed", file, text,
                    old: #"{"existsIn": {"schema": "card-programs-response", "pointer": "/programs/*/programName"}}"#,
                    new: #"{"existsIn": {"schema": "card-programs-response", "pointer": "/programs/*/currency"}}"#),
                Case(
                    "exists-in-removed", file, text,
                    old: #"{"existsIn": {"schema": "card-programs-response", "pointer": "/programs/*/programName"}}"#,
                    new: #"{"existsIn": null}"#),
                Case("label-changed", file, text, new: #"{"name": {"en": "Another label"}}"#),
                Case("description-changed", file, text, new: #"{"description": "Another description."}"#),
                Case("message-changed", file, text, new: #"{"messages": {"required": {"en": "Give it"}}}"#),
                Case("order-changed", file, text, new: #"{"order": 99}"#),
                Case("group-changed", file, text, new: #"{"dataGroup": "OTHER"}"#),
                Case("field-removed", file, text, new: #"{"key": "renamed"}"#),
                Case("field-added", file, text, old: #"{"key": "renamed"}"#, new: #"{"key": "\#(text)"}"#),
                Case(
                    "required-field-added", file, text, old: #"{"key": "renamed"}"#,
                    new: #"{"key": "\#(text)", "required": true, "nullable": null}"#),
            ]
    }

    /// A bound's four changes: added, tightened (`tight`), loosened (`loose`), removed, from `was` (an upper bound
    /// tightens downwards, a lower one upwards); `base` is set in both versions.
    static func bound(
        _ name: String, _ attribute: String, upper: Bool, _ file: String, _ field: String, base: String = "",
        tight: Int, was: Int, loose: Int
    ) -> [Case] {
        let prefix = base.isEmpty ? "" : base + ", "
        let old = "{\(prefix)\"\(attribute)\": \(was)}"
        return [
            Case(
                "\(name)-added", file, field, old: "{\(prefix)\"\(attribute)\": null}",
                new: "{\"\(attribute)\": \(tight)}"),
            Case(
                "\(name)-\(upper ? "decreased" : "increased")", file, field, old: old,
                new: "{\"\(attribute)\": \(tight)}"),
            Case(
                "\(name)-\(upper ? "increased" : "decreased")", file, field, old: old,
                new: "{\"\(attribute)\": \(loose)}"),
            Case("\(name)-removed", file, field, old: old, new: "{\"\(attribute)\": null}"),
        ]
    }

    /// What a schema declares: contexts and tender types; the root's policy for members it does not know.
    static let schemaCases: [Case] =
        [
            Case(
                "context-value-removed", "card-create.json", nil,
                old: #"{"contexts": {"region": {"values": ["US", "EU", "UK"]}}}"#,
                new: #"{"contexts": {"region": {"values": ["US", "EU"]}}}"#),
            Case(
                "context-value-added", "card-create.json", nil,
                old: #"{"contexts": {"region": {"values": ["US", "EU"]}}}"#,
                new: #"{"contexts": {"region": {"values": ["US", "EU", "UK"]}}}"#),
            Case(
                "tender-type-removed", "payment-account.json", nil,
                old: #"{"tenderTypes": ["credit", "debit", "gift", "prepaid"]}"#,
                new: #"{"tenderTypes": ["credit", "debit", "gift"]}"#),
            Case(
                "tender-type-added", "payment-account.json", nil,
                new: #"{"tenderTypes": ["credit", "debit", "gift", "prepaid"]}"#),
        ]
        // The payload's own members, in a request schema and a response schema.
        + ["card-list-query.json", "card-response.json"].flatMap { file in
            [(false, "unknown-fields-disallowed"), (true, "unknown-fields-allowed")].map { allowed, id in
                Case(
                    id, file, nil, old: #"{"additionalFields": \#(!allowed)}"#,
                    new: #"{"additionalFields": \#(allowed)}"#)
            }
        }

    /// The shipped schema documents, by id (reference data as `reference/...`).
    static let shipped: [String: [UInt8]] = try! SchemaSource.directory(
        Fixtures.repository.appendingPathComponent("Schemas")
    ).documents()

    /// The shipped schema of a file, with `changes` (JSON objects of attributes, `null` removing one) applied to a
    /// field of it or to the schema itself, compiled with only what it needs: the documents it names (its `ref`s,
    /// `existsIn` and response schema, and theirs) and the reference data. (The whole catalogue, compiled twice for
    /// each of over a hundred cases, made this suite the slowest under the sanitizers.)
    static func schemas(_ file: String, field: String?, _ changes: [String]) throws -> Validator {
        let id = String(file.dropLast(".json".count))
        let bytes = try #require(shipped[id])
        var object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        func apply(_ attributes: [String: Any], to target: inout [String: Any]) {
            for (key, value) in attributes { target[key] = value is NSNull ? nil : value }
        }
        for text in changes {
            let attributes = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if let field {
                // The field's key may be what a change renames it to.
                let key =
                    (object["fields"] as? [[String: Any]])?.contains { $0["key"] as? String == field } == true
                    ? field : "renamed"
                SchemaComparisonTests.field(key, in: &object) { apply(attributes, to: &$0) }
            } else {
                apply(attributes, to: &object)
            }
        }
        var documents = shipped.filter { $0.key.hasPrefix("reference/") }
        documents[id] = [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]))
        // The documents it names, and theirs: every shipped id its text holds as a string.
        var pending = [id]
        while let next = pending.popLast() {
            let text = String(decoding: documents[next] ?? [], as: UTF8.self)
            for (other, bytes) in shipped where documents[other] == nil && text.contains("\"\(other)") {
                documents[other] = bytes
                pending.append(other)
            }
        }
        return try Validator(source: .documents(documents))
    }

    @Test(arguments: attributeCases + schemaCases)
    func eachChangeIsFoundAndClassified(_ test: Case) throws {
        let old = try Self.schemas(test.file, field: test.field, [test.old])
        let new = try Self.schemas(test.file, field: test.field, [test.old, test.new])
        let comparison = SchemaComparison(old: old, new: new, examples: SchemaComparisonTests.examples)
        let changes = comparison.changes()
        let schema = String(test.file.dropLast(".json".count))
        let path = test.field.map { "/\($0)" } ?? ""
        let found = try #require(
            changes.first { $0.schema == schema && $0.change == test.id && $0.path == path },
            "\(changes.map { "\($0.schema) \($0.path) \($0.change)" })")
        let kind = try #require(old.schema(schema)?.kind)
        #expect(found.direction == (kind == .response ? .response : .request))
        let location = try #require(found.location)
        #expect(location.file.contains(schema) && location.position != nil, "\(location)")
        var (breaking, severity) = SchemaChange.assess(test.id, schema: kind)
        // A member added or removed is judged by whether an app built on the old version fails: one that sends a
        // removed member fails only where the object now refuses members it does not know; one that reads fails on
        // a new member only where the old object refused unknown ones, and on a removed one only if it was required.
        let oldRoot = try #require(old.schema(schema)?.root)
        switch (test.id, kind) {
        case ("field-removed", .request) where new.schema(schema)?.root.additionalFields == true:
            (breaking, severity) = (false, .info)
        case ("field-removed", .response):
            let wasRequired = try #require(oldRoot.fields.first { $0.key == test.field }).base.presence.mustBePresent
            (breaking, severity) = wasRequired ? (true, .error) : (false, .warning)
        case ("field-added", .response), ("required-field-added", .response):
            if !oldRoot.additionalFields {
                (breaking, severity) = (true, .error)
            } else if test.id == "field-added" {
                (breaking, severity) = (false, .info)
            }
        default: break
        }
        #expect(found.breaking == breaking && found.severity == severity, "\(found.noWitness ?? "")")
        // Every request break has a witness; a response's tightening has one when a payload shows it.
        guard breaking && (kind == .request || found.witness != nil) else {
            #expect(found.witness == nil && (found.noWitness == nil || test.id.hasPrefix("exists-in-")))
            return
        }
        // A lookup in another document is shown only with that document: the change says so instead.
        if test.id.hasPrefix("exists-in-") {
            #expect(found.witness == nil && found.noWitness?.contains("--with") == true)
            return
        }
        let witness = try #require(found.witness, "\(found.noWitness ?? "")")
        let accepted = try old.prepare(schema, context: witness.context, tenderType: witness.tenderType)
            .validate(json: witness.payload)
        #expect(accepted.valid, "\(accepted.errors) \(String(decoding: witness.shown, as: UTF8.self))")
        // A context value or tender type the new version no longer declares refuses the payload before validating.
        guard let prepared = try? new.prepare(schema, context: witness.context, tenderType: witness.tenderType) else {
            #expect(["context-value-removed", "tender-type-removed"].contains(test.id))
            return
        }
        let refused = prepared.validate(json: witness.payload)
        #expect(refused.errors.contains { SchemaComparison.path($0.path, isAt: found.path) }, "\(refused.errors)")
    }

    @Test(arguments: ["card-list-query", "card-list-response"])
    func aSchemaRemovedBreaksItsAppsAndOneAddedBreaksNone(id: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Fixtures.repository.appendingPathComponent("Schemas"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(id).json")
        let text = try String(contentsOf: file, encoding: .utf8)
        try FileManager.default.removeItem(at: file)
        try text.replacingOccurrences(of: #""id": "\#(id)""#, with: #""id": "\#(id)-2""#)
            .write(to: folder.appendingPathComponent("\(id)-2.json"), atomically: true, encoding: .utf8)
        let changes = SchemaComparison(old: Fixtures.validator, new: try Validator(source: .directory(folder)))
            .changes()
        let removed = try #require(changes.first { $0.change == "schema-removed" })
        let added = try #require(changes.first { $0.change == "schema-added" })
        let direction: SchemaChange.Direction = id.hasSuffix("-response") ? .response : .request
        #expect(
            removed.schema == id && removed.breaking && removed.severity == .error && removed.direction == direction)
        #expect(added.schema == id + "-2" && !added.breaking && added.severity == .info && added.direction == direction)
        #expect(removed.location?.position != nil && added.location?.file.hasSuffix("\(id)-2.json") == true)
    }

    @Test func everyChangeIdIsTested() {
        let tested = Set((Self.attributeCases + Self.schemaCases).map(\.id) + ["schema-removed", "schema-added"])
        #expect(Set(SchemaChange.kinds.keys).subtracting(tested).isEmpty)
    }
}
