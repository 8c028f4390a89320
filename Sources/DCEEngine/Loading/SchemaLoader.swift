/// Reads schema documents from a ``SchemaSource`` and decodes them, caching each document once.
package struct SchemaLoader {
    let source: SchemaSource
    /// The kinds of object rule the schema language has.
    let ruleKinds: [any ObjectRuleKind.Type]
    private var cache: [String: SchemaDocument] = [:]

    package init(source: SchemaSource, ruleKinds: [any ObjectRuleKind.Type] = ObjectRuleKinds.builtIn) {
        self.source = source
        self.ruleKinds = ruleKinds
    }

    /// Loads one schema document.
    ///
    /// - Parameters:
    ///   - id: The schema id.
    ///   - referencedFrom: Where the id was named, when it comes from a `ref`.
    /// - Throws: ``SchemaError`` when the schema is missing, unreadable, not JSON, or not a valid schema document.
    package mutating func load(_ id: String, referencedFrom: SchemaLocation? = nil) throws(SchemaError)
        -> SchemaDocument
    {
        if let cached = cache[id] { return cached }
        guard let (bytes, file) = try source.read(id) else {
            let known = (try? source.schemaIDs()) ?? []
            let hint = Suggestion.hint(for: id, in: known)
            guard let referencedFrom else {
                // Asked for by id, not named in a file: no file to point at, so the problem says where it looked.
                throw SchemaError(problems: [
                    SchemaProblem(
                        code: .unknownSchema, message: "no schema with id '\(id)' \(source.whereSchemasAre)\(hint)",
                        location: SchemaLocation(file: "", pointer: "", position: nil))
                ])
            }
            throw SchemaError(problems: [
                SchemaProblem(
                    code: .unknownReference, message: "no schema with id '\(id)'\(hint)", location: referencedFrom)
            ])
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes)
        } catch {
            throw SchemaError(problems: [
                SchemaProblem(
                    code: .json, message: "not well-formed JSON: \(error.message)",
                    location: SchemaLocation(file: file, pointer: "", position: error.position), cause: error)
            ])
        }
        var decoder = SchemaDecoder(document: document, file: file, ruleKinds: ruleKinds)
        let decoded = decoder.decode(expectedID: id)
        guard let decoded, decoder.problems.isEmpty else { throw SchemaError(problems: decoder.problems) }
        cache[id] = decoded
        return decoded
    }
}
