/// A schema file as written: one request or response shape, with its contexts and shared definitions.
package struct SchemaDocument: Sendable {
    /// The schema id; the file is `<id>.json`.
    package var id: String
    package var version: String
    package var name: String?
    package var description: String?
    package var file: String
    /// The contexts the schema understands, in the order written.
    var contexts: [ContextDefinition]
    /// The tender types (payment types) the schema's fields specialise for.
    package var tenderTypes: [String]
    /// The request's top-level object.
    package var root: FieldDefinition
    /// Shared definitions by name, reachable as `#/definitions/Name` or `<id>#/definitions/Name`.
    package var definitions: [String: FieldDefinition]
    /// Whether the schema's regexes may use constructs that backtrack without bound (backreferences, lookaround,
    /// recursion, nested unbounded repeats). Off by default: schemas may come from a server.
    var trustedPatterns: Bool
    /// Whether `Boolean` fields also accept the numbers 0 and 1, as older clients send booleans wrapped in
    /// `NSNumber` (seed 004); what is sent converts them to `false` and `true`.
    package var numericBooleans = false
    /// Whether the request is a JSON merge patch (RFC 7396): a member left out changes nothing, and `null` removes
    /// the value. Validation reads `null` as `nullable` says; generated models tell the three apart (`Patch`).
    package var mergePatch = false
    /// The schema a gateway's answer to this request follows (`PDResponse.payload`).
    package var responseSchema: String?
    /// What the schema describes: a request (the default), a response, or a component.
    package var kind = SchemaKind.request
    /// Where each of the schema's own members (`contexts`, `tenderTypes`, `additionalFields`, …) is written.
    var locations: [String: SchemaLocation] = [:]
}

/// What a schema describes, which decides where it may be used (`"kind"` in a schema file).
public enum SchemaKind: String, Sendable, Hashable, CaseIterable {
    /// A request an app sends (the default): a gateway accepts envelopes of it.
    case request
    /// A gateway's answer, such as a request's `responseSchema`: clients check answers against it, and a gateway
    /// never accepts it as a request.
    case response
    /// A shape other schemas use by `ref` (an address): it can be validated on its own, but a gateway never accepts
    /// it as a request.
    case component
}

/// A named value the caller supplies (`region=US`), with the values it may take and how to derive it when the
/// caller does not supply it.
struct ContextDefinition: Sendable {
    var location: SchemaLocation
    var name: String
    var description: String?
    /// The allowed values; `nil` accepts any string.
    var values: [String]?
    /// Rules tried in order when the caller gives no value: the first whose condition holds sets the value.
    var derive: [(condition: ConditionDefinition, value: String, location: SchemaLocation)]
}
