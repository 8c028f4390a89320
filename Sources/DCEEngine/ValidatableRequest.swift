/// A typed request that names the schema it is checked against.
///
/// Conform a `Codable` model whose coding keys are the JSON field names:
///
/// ```swift
/// struct NicknameRequest: ValidatableRequest, Codable {
///     static let schemaID = "nickname-update"
///     var nickname: String
/// }
/// let report = try validator.validate(NicknameRequest(nickname: "Travel"))
/// ```
///
/// Such a request is written for the engine through `Encodable`. The models `dce-validate generate swift` writes
/// implement ``DocumentWritable/write(to:)`` themselves, member by member in the schema's order, and skip the
/// encoder's machinery, which cost more than the validation.
public protocol ValidatableRequest: DocumentWritable, Encodable, Sendable {
    /// The id of the schema in `Schemas/` that describes this request.
    static var schemaID: String { get }
}

extension ValidatableRequest {
    /// Writes the request through its `Encodable` conformance, as `JSONEncoder` with its default strategies would.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.encode(self) }
}
