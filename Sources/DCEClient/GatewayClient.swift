public import DCEEngine
public import DCEEnvelope
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Why sending a request failed: three kinds an app handles differently.
public enum GatewayError: Error, Sendable, Hashable {
    /// The gateway could not be reached or did not answer in time, after every retry (safe to try again later).
    case transport(TransportFailure)
    /// The gateway refused the request; the response carries its errors (fix the request).
    case rejected(PDResponse)
    /// The gateway answered something that is not a valid response: not a `PDResponse`, another request's, or a
    /// payload that breaks its response schema (the report says how). Never shown to the app as an answer.
    case invalidResponse(String, ValidationReport?)
}

/// How the transport failed.
public enum TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection (refused, unknown host, network down).
    case unreachable(String)
    /// No answer within the timeout.
    case timeout
    /// The gateway kept answering with this server error status (5xx, 429).
    case status(Int)
    /// The calling task was cancelled.
    case cancelled

    /// What happened, as a person reads it: `it could not be reached (Connection refused)`.
    public var description: String {
        switch self {
        case .unreachable(let reason): "it could not be reached (\(reason))"
        case .timeout: "it did not answer in time"
        case .status(let status): "it kept answering HTTP \(status)"
        case .cancelled: "the call was cancelled"
        }
    }
}

/// Posts envelopes to a gateway and hands back only responses that passed validation.
///
/// Built on `URLSession` (Foundation on Apple platforms, FoundationNetworking on Linux): no dependency beyond
/// Foundation, the platform's own proxy, TLS and certificate handling, and `async` cancellation.
///
/// ```swift
/// let client = GatewayClient(baseURL: URL(string: "https://gateway.example")!, validator: validator)
/// let response = try await client.send(request)   // PDRequest from PreparedSchema.makeRequest
/// ```
public struct GatewayClient: Sendable {
    /// Timeouts and retries.
    public struct Configuration: Sendable, Hashable {
        /// How long one attempt may wait for the gateway, in seconds.
        public var timeout: TimeInterval
        /// How many attempts in all (1 = no retry).
        public var attempts: Int
        /// The wait before the first retry, in seconds; doubled for each further one.
        public var backoff: TimeInterval

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - timeout: Seconds per attempt.
        ///   - attempts: Attempts in all.
        ///   - backoff: Seconds before the first retry.
        public init(timeout: TimeInterval = 10, attempts: Int = 3, backoff: TimeInterval = 0.2) {
            self.timeout = timeout
            self.attempts = max(1, attempts)
            self.backoff = backoff
        }
    }

    /// The gateway's base URL; requests go to `v1/requests` under it.
    public let baseURL: URL
    /// The schemas responses are checked against (each request schema's `responseSchema`).
    public let validator: Validator
    /// Timeouts and retries.
    public let configuration: Configuration
    private let session: URLSession
    /// The credential presented as `Authorization: Bearer`, asked for each request (an API key; a token that is
    /// renewed); never printed or logged.
    private let credential: @Sendable () -> String?

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The gateway.
    ///   - validator: The schemas for checking responses.
    ///   - configuration: Timeouts and retries.
    ///   - session: The URL session (a dedicated ephemeral one by default).
    ///   - credential: What the client presents as `Authorization: Bearer` (an API key from `dce-gateway keys
    ///     create`), asked for before each request; none by default, for a gateway run with `--no-auth`.
    public init(
        baseURL: URL, validator: Validator, configuration: Configuration = Configuration(), session: URLSession? = nil,
        credential: @escaping @Sendable () -> String? = { nil }
    ) {
        self.credential = credential
        self.baseURL = baseURL
        self.validator = validator
        self.configuration = configuration
        self.session = session ?? URLSession(configuration: .ephemeral)
    }

    /// Sends a request. Retries are safe: every attempt sends the same envelope (same request id, same bytes), and
    /// the gateway answers a request it has processed with the same answer instead of processing it again. Server
    /// errors, 429 and 503 (after its `Retry-After`, up to the backoff's own length when longer) are retried, as is
    /// 409 `requestInProgress`, but not a 429 `cardVelocity` (a card-testing limit: a rejection); the envelope's creation time is sealed, so retries must stay within the gateway's
    /// replay window (five minutes by default).
    ///
    /// - Parameter request: The envelope (only a valid request has one).
    /// - Returns: The accepted response, its payload checked against the response schema.
    /// - Throws: ``GatewayError``.
    public func send(_ request: PDRequest) async throws(GatewayError) -> PDResponse {
        var urlRequest = URLRequest(url: baseURL.appendingPathComponent("v1/requests"))
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = Data(request.json)
        urlRequest.timeoutInterval = configuration.timeout
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue(request.header.requestID, forHTTPHeaderField: "Idempotency-Key")
        if let credential = credential() {
            urlRequest.setValue("Bearer " + credential, forHTTPHeaderField: "Authorization")
        }

        var failure = TransportFailure.unreachable("no attempt was made")
        var retryAfter: TimeInterval = 0
        for attempt in 0..<configuration.attempts {
            if attempt > 0 {
                let backoff = configuration.backoff * Double(1 << (attempt - 1))
                do {
                    try await Task.sleep(
                        nanoseconds: UInt64(max(backoff, min(retryAfter, configuration.timeout)) * 1_000_000_000))
                } catch {
                    throw .transport(.cancelled)
                }
            }
            if Task.isCancelled { throw .transport(.cancelled) }
            let data: Data
            let status: Int
            do {
                let (body, response) = try await session.data(for: urlRequest)
                data = body
                status = (response as? HTTPURLResponse)?.statusCode ?? 0
                retryAfter =
                    (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After").flatMap {
                        TimeInterval($0)
                    } ?? 0
            } catch {
                failure = Self.failure(error)
                if failure == .cancelled || Task.isCancelled { throw .transport(.cancelled) }
                continue
            }
            if status >= 500 || (status == 429 && !Self.says(data, "cardVelocity"))
                || (status == 409 && Self.says(data, "requestInProgress"))
            {
                failure = .status(status)
                continue
            }
            return try answer(data, status: status, to: request)
        }
        throw .transport(failure)
    }

    /// Whether an answer's first error has the rule code `rule`: a 409 `requestInProgress` is worth retrying (not
    /// that its id is taken), a 429 `cardVelocity` is not (the card-testing limits hold for minutes: the caller sees
    /// the rejection and its `Retry-After` instead).
    private static func says(_ data: Data, _ rule: String) -> Bool {
        (try? PDResponse(json: [UInt8](data)))?.errors.first?.rule.rawValue == rule
    }

    /// Checks what the gateway answered: 200 accepted; 422, 409, 413, 415, 401 (no valid credential), 403 (no
    /// scope for the schema) or 429 (a card-testing limit) rejected, with the gateway's reason.
    private func answer(_ data: Data, status: Int, to request: PDRequest) throws(GatewayError) -> PDResponse {
        guard [200, 401, 403, 409, 413, 415, 422, 429].contains(status) else {
            throw .invalidResponse("the gateway answered HTTP \(status)", nil)
        }
        let response: PDResponse
        do {
            response = try PDResponse(json: [UInt8](data))
        } catch {
            throw .invalidResponse(error.message, nil)
        }
        // A body or media type refused before the envelope was read names no request.
        guard
            response.requestID == request.header.requestID
                || (response.requestID.isEmpty && [401, 413, 415].contains(status))
        else {
            throw .invalidResponse(
                "the response answers request '\(response.requestID)', not '\(request.header.requestID)'", nil)
        }
        guard response.status == .accepted, status == 200 else {
            guard response.status == .rejected, status != 200 else {
                throw .invalidResponse(
                    "HTTP \(status) does not match the response status '\(response.status.rawValue)'", nil)
            }
            throw .rejected(response)
        }
        if let responseSchema = validator.schema(request.header.schema)?.responseSchema {
            let report: ValidationReport
            do {
                report = try validator.prepare(responseSchema).validate(json: Array(response.payload.description.utf8))
            } catch {
                throw .invalidResponse(
                    "the response schema '\(responseSchema)' is not available: \(error.message)", nil)
            }
            guard report.valid else {
                throw .invalidResponse("the response payload breaks \(responseSchema)", report)
            }
        }
        return response
    }

    private static func failure(_ error: any Error) -> TransportFailure {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .unreachable("\(error)") }
        switch urlError.code {
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        default: return .unreachable(urlError.localizedDescription)
        }
    }
}
