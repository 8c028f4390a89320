import DCEEngine
import DCEEnvelope
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension Gateway {
    /// An answer to one request: the HTTP status, the `PDResponse` body, and how long to wait before retrying
    /// when the gateway is saturated.
    public struct Answer: Sendable, Hashable {
        /// The HTTP status.
        public var status: Int
        /// The `PDResponse` as JSON.
        public var body: [UInt8]
        /// Seconds for the `Retry-After` header, with 503.
        public var retryAfter: Int?

        /// Creates an answer.
        ///
        /// - Parameters:
        ///   - status: The HTTP status.
        ///   - body: The response body.
        ///   - retryAfter: Seconds before a retry, for 503.
        public init(status: Int, body: [UInt8], retryAfter: Int? = nil) {
            self.status = status
            self.body = body
            self.retryAfter = retryAfter
        }

        /// What the access log and the metrics say of the exchange; not part of the answer's identity.
        var note = Note()

        /// Whether two answers say the same to the client: status, body and `Retry-After` (the log's note aside).
        public static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body && lhs.retryAfter == rhs.retryAfter
        }

        /// Hashes what ``==(_:_:)`` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(body)
            hasher.combine(retryAfter)
        }
    }

    /// What the access log and the metrics say of an exchange besides its status: ids, schema, rule codes and
    /// timings, never a value or a message.
    struct Note: Sendable {
        var requestID = ""
        var schema: String?
        var schemaVersion: String?
        /// The rule codes of a refusal or rejection; `replayed` for an answer given again.
        var rules: [String] = []
        /// Why the request was refused, for the refusal counter: a refusal's rule, or `invalid` after validation.
        var refusal: String?
        /// What became of its request id when it was not processed: `replayed`, `conflict`, `inProgress`, `full`.
        var idempotency: String?
        /// How long opening, validating and answering it took on a validation thread.
        var validation: Duration?
        /// Who sent it (``Caller/name``), once known.
        var caller: String?
    }
}

extension Gateway.Answer {
    /// A rejected answer with one error, its note naming the rule.
    static func refusal(
        _ status: Int, requestID: String, _ rule: ViolationCode, _ message: String, retryAfter: Int? = nil
    ) -> Gateway.Answer {
        let response = PDResponse(
            requestID: requestID, status: .rejected,
            errors: [Violation(path: "", key: "", rule: rule, message: message)])
        var answer = Gateway.Answer(status: status, body: response.json, retryAfter: retryAfter)
        answer.note = Gateway.Note(requestID: requestID, rules: [rule.rawValue], refusal: rule.rawValue)
        return answer
    }

    /// The answer as HTTP: JSON, with `Retry-After` when it has one and `WWW-Authenticate` with 401; hands its note
    /// to the exchange being recorded, for the access log and the metrics.
    func response() -> Response {
        Exchange.current?.note = note
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if status == 401 { headers[.wwwAuthenticate] = #"Bearer realm="dce-gateway""# }
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// What the gateway's middleware and routes learn of one exchange, handed from one to the next through the task that
/// answers it (a task-local value, as Hummingbird's tracing hands on its context): who called, once authenticated,
/// and the note the access log and the metrics write once the route has answered.
///
/// `@unchecked Sendable`: its fields are read and written under `lock` (a route's work may hop threads).
final class Exchange: @unchecked Sendable {
    /// The exchange of the task answering a request, if one is being recorded.
    @TaskLocal static var current: Exchange?

    private let lock = NSLock()
    private var storedNote = Gateway.Note()
    private var storedCaller: Caller?

    /// What the access log and the metrics say of the exchange.
    var note: Gateway.Note {
        get { lock.withLock { storedNote } }
        set { lock.withLock { storedNote = newValue } }
    }

    /// Who sent the request, once authenticated.
    var caller: Caller? {
        get { lock.withLock { storedCaller } }
        set { lock.withLock { storedCaller = newValue } }
    }

    /// Runs `body` with this task's exchange: the one being recorded, or a new one for the time of `body`.
    static func recording<Result>(_ body: (Exchange) async throws -> Result) async rethrows -> Result {
        if let current { return try await body(current) }
        let exchange = Exchange()
        return try await $current.withValue(exchange) { try await body(exchange) }
    }
}
