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
public protocol ValidatableRequest: Encodable, Sendable {
    /// The id of the schema in `Schemas/` that describes this request.
    static var schemaID: String { get }
}
