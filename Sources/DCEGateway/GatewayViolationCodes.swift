public import DCEEngine

/// The rule codes only the gateway answers with.
extension ViolationCode {
    /// The envelope has no creation time, or it lies outside the gateway's replay window (too old, or too far in
    /// the future).
    public static let replayWindow = ViolationCode(rawValue: "replayWindow")
    /// The request id was used before for a different request (HTTP 409).
    public static let idempotencyConflict = ViolationCode(rawValue: "idempotencyConflict")
    /// The same request is being processed; retry shortly (HTTP 409).
    public static let requestInProgress = ViolationCode(rawValue: "requestInProgress")
    /// The request has no valid credential: none, a malformed one, an unknown or revoked key (HTTP 401, with
    /// `WWW-Authenticate: Bearer`).
    public static let unauthenticated = ViolationCode(rawValue: "unauthenticated")
    /// The credential is valid but lacks the scope for the schema posted, `requests:SCHEMA` (HTTP 403).
    public static let missingScope = ViolationCode(rawValue: "missingScope")
    /// The request body is not `application/json` (HTTP 415).
    public static let unsupportedMediaType = ViolationCode(rawValue: "unsupportedMediaType")
    /// The request body is larger than the gateway's limit (HTTP 413).
    public static let bodyTooLarge = ViolationCode(rawValue: "bodyTooLarge")
    /// The gateway is saturated; retry after the `Retry-After` seconds (HTTP 503).
    public static let overloaded = ViolationCode(rawValue: "overloaded")
    /// The request presents a card number while its caller has presented too many different cards in a minute, or
    /// the card has been presented by too many callers in an hour (card testing); retry after the `Retry-After`
    /// seconds (HTTP 429). The answer does not say which.
    public static let cardVelocity = ViolationCode(rawValue: "cardVelocity")
    /// The gateway cannot reach its store (its database); retry after the `Retry-After` seconds (HTTP 503). Nothing
    /// was recorded.
    public static let storeUnavailable = ViolationCode(rawValue: "storeUnavailable")
}
