/// Builds the payload that is actually sent: every absent field that has a `defaultValue` gets it, and when the
/// operation is provisioning a new account (context `operation=provision`) the fields marked
/// `ignoreForProvisioning` are left out. Values are written back as compact JSON, numbers exactly as they came.
struct RequestResolver {
    let schema: CompiledSchema
    let document: JSONDocument
    let provisioning: Bool
    /// The tender type whose metadata and defaults apply.
    var tenderType: String? = nil
    /// Whether `Boolean` fields may hold 0 or 1, which are sent as `false` and `true`.
    var numericBooleans = false
    /// The tender type in force inside each value whose field binds one, as validation's walk found it
    /// (``EvaluationPlan/tenderTypesInForce(in:)``).
    var boundTenderTypes: [JSONDocument.Index: String?] = [:]

    func resolve(_ root: CompiledField) -> SchemaValue {
        value(document.root, of: root)
    }

    private func value(_ index: JSONDocument.Index, of field: CompiledField) -> SchemaValue {
        guard !field.bindings.isEmpty else { return resolvedValue(index, of: field) }
        var inside = self
        inside.tenderType = tenderType(inside: field, index)
        return inside.resolvedValue(index, of: field)
    }

    /// The tender type inside a field's value (present, or `nil`), as validation's walk found it.
    private func tenderType(inside field: CompiledField, _ index: JSONDocument.Index?) -> String? {
        schema.tenderType(inside: field, value: index, outside: tenderType, bound: boundTenderTypes)
    }

    private func resolvedValue(_ index: JSONDocument.Index, of field: CompiledField) -> SchemaValue {
        switch (document.kind(of: index), field.dataType) {
        case (.object, .object):
            var members: [SchemaValue.Member] = []
            var seen: Set<String> = []
            for member in document.members(of: index, describedBy: field) {
                let (key, valueIndex) = (member.key, member.value)
                seen.insert(key)
                if let child = member.field {
                    // Skipped as validation skips it: under the tender type inside it.
                    if provisioning && child.isIgnoredForProvisioning(under: tenderType(inside: child, valueIndex)) {
                        continue
                    }
                    members.append(.init(key: key, value: value(valueIndex, of: child)))
                } else {
                    members.append(.init(key: key, value: SchemaValue(document: document, at: valueIndex)))
                }
            }
            for child in field.fields {
                let inside = tenderType(inside: child, nil)
                guard let key = child.key, !seen.contains(key), let defaultValue = child.defaultValue(for: inside)
                else { continue }
                if provisioning && child.isIgnoredForProvisioning(under: inside) { continue }
                members.append(.init(key: key, value: defaultValue))
            }
            return .object(members)
        case (.array, .array):
            guard let items = field.items else { return SchemaValue(document: document, at: index) }
            return .array(document.elements(of: index).map { value($0, of: items) })
        case (.number, .boolean) where numericBooleans:
            return DataType.numericBoolean(at: index, in: document).map(SchemaValue.boolean)
                ?? SchemaValue(document: document, at: index)
        default:
            return SchemaValue(document: document, at: index)
        }
    }
}

/// A request ready to be sent: its report and, when it is valid, the payload after defaults.
///
/// The payload holds sensitive values in clear (to be sealed or sent), so its description, debug description and
/// mirror show only its size.
public struct ResolvedRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The verdict on the payload after defaults.
    public var report: ValidationReport
    /// The payload to send (UTF-8 JSON), when the report is valid; `nil` otherwise.
    public var payload: [UInt8]?

    /// The verdict and the payload's size.
    public var description: String {
        "ResolvedRequest(\(report.valid ? "valid" : "invalid"), \(payload.map { "\($0.count) bytes" } ?? "no payload"))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// The report only.
    public var customMirror: Mirror { Mirror(self, children: ["report": report], displayStyle: .struct) }
}
