import DCEEngine
import DCEEnvelope
import Foundation
import Logging

/// The card-testing limits, in front of the backend: a valid request that presents card numbers is answered 429 with
/// `Retry-After` when its caller has presented too many different cards, or one of its cards has been presented by
/// too many callers (``Gateway/Limits/cardVelocity``), and 503 when the store that counts them cannot be reached.
///
/// Middleware of the envelope's way rather than of HTTP: it needs the request opened and validated (the fingerprints
/// of its card numbers), which exists only once its id is claimed and it has been validated, and its answer is the
/// one remembered for that id.
struct CardTestingMiddleware: Sendable {
    /// Where presentations are counted, shared by every instance with a shared store.
    let store: any GatewayStore
    let limits: CardVelocity
    let now: @Sendable () -> Date
    let logger: Logger

    /// Answers `request` with `next` unless it meets a limit.
    ///
    /// - Parameters:
    ///   - request: The request, opened and validated.
    ///   - caller: Who sent it: the per-caller limit counts by its name.
    ///   - next: What answers a request within the limits.
    /// - Returns: The answer.
    func handle(
        _ request: Gateway.ValidRequest, caller: Caller, next: (Gateway.ValidRequest) async -> Gateway.Answer
    ) async -> Gateway.Answer {
        guard !request.cards.isEmpty else { return await next(request) }
        let verdict: CardVerdict
        do {
            verdict = try await store.present(cards: request.cards, caller: caller.name, at: now(), limits: limits)
        } catch {
            logger.error(
                "store unavailable",
                metadata: ["requestId": .string(request.header.requestID), "reason": .string(error.message)])
            return .refusal(
                503, requestID: request.header.requestID, .storeUnavailable,
                "the gateway cannot reach its database: retry shortly", retryAfter: 1)
        }
        guard case .refused(let reason, let retryAfter) = verdict else { return await next(request) }
        // The same words whichever limit was met: a caller learns nothing of what others presented.
        var answer = Gateway.Answer.refusal(
            429, requestID: request.header.requestID, .cardVelocity,
            "too many card numbers presented in a short time: retry after \(retryAfter) s", retryAfter: retryAfter)
        answer.note.refusal = reason.rawValue
        answer.note.schema = request.header.schema
        answer.note.schemaVersion = request.header.schemaVersion
        return answer
    }
}
