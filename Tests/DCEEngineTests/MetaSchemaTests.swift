import Foundation
import Testing

@testable import DCEEngine

/// The published meta-schema (Schemas/dce-schema.schema.json) names exactly the attributes the loader reads.
/// (scripts/check_schemas.py then checks every schema file against it with Python's jsonschema.)
struct MetaSchemaTests {
    private func properties(_ object: Any?, _ path: [String]) -> Set<String> {
        var current = object
        for key in path { current = (current as? [String: Any])?[key] }
        return Set(((current as? [String: Any])?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    @Test func namesTheSameAttributesAsTheLoader() throws {
        let data = try Data(contentsOf: Fixtures.schemas.appendingPathComponent("dce-schema.schema.json"))
        let meta = try JSONSerialization.jsonObject(with: data)
        #expect(properties(meta, []) == Set(SchemaDecoder.documentAttributes))
        let field = properties(meta, ["$defs", "overridable"]).union(properties(meta, ["$defs", "metadata"]))
            .union(properties(meta, ["$defs", "fieldBody"])).union(properties(meta, ["$defs", "keyedField"]))
        #expect(field == Set(SchemaDecoder.fieldAttributes))
        #expect(properties(meta, ["$defs", "overridable"]) == Set(SchemaDecoder.overridableAttributes))
        #expect(properties(meta, ["$defs", "validation"]) == Set(SchemaDecoder.validationAttributes))
        #expect(properties(meta, ["$defs", "context"]) == Set(SchemaDecoder.contextAttributes))
        let formats =
            ((meta as? [String: Any]).flatMap { ($0["$defs"] as? [String: Any])?["format"] as? [String: Any] })?["enum"]
            as? [String]
        #expect(Set(formats ?? []) == Set(Format.allCases.map(\.rawValue)))
        let types =
            ((meta as? [String: Any]).flatMap { ($0["$defs"] as? [String: Any])?["dataType"] as? [String: Any] })?[
                "enum"] as? [String]
        #expect(Set(types ?? []) == Set(DataType.allCases.map(\.rawValue)))
    }
}
