import Foundation
import Hummingbird
import Logging

/// The access log: one line per exchange, once the route has answered (method, path, status, duration, and from the
/// exchange's note the caller, request id, schema, version and rule codes), never a message or a value (and the
/// redacting handler, in `dce-gateway`, in front). 2xx and 3xx at `info`, 4xx at `notice`, 5xx at `warning`.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try await Exchange.recording { exchange in
            let started = ContinuousClock.now
            let response = try await next(request, context)
            log.write(
                exchange.note, method: request.method.rawValue, path: context.endpointPath ?? request.uri.path,
                status: response.status.code, duration: ContinuousClock.now - started)
            return response
        }
    }
}

/// Writes the access log's lines.
struct AccessLog: Sendable {
    let logger: Logger

    /// Logs one exchange.
    func write(_ note: Gateway.Note, method: String, path: String, status: Int, duration: Duration) {
        var metadata: Logger.Metadata = [
            "method": .string(method), "path": .string(path), "status": .stringConvertible(status),
            "durationMs": .string(String(format: "%.3f", duration.seconds * 1_000)),
        ]
        if let caller = note.caller { metadata["caller"] = .string(caller) }
        if !note.requestID.isEmpty { metadata["requestId"] = .string(note.requestID) }
        if let schema = note.schema { metadata["schema"] = .string(schema) }
        if let version = note.schemaVersion { metadata["schemaVersion"] = .string(version) }
        if !note.rules.isEmpty { metadata["rules"] = .array(note.rules.map { .string($0) }) }
        // A reason the rule code does not say (which card-testing limit was met): for operations, never the answer.
        if let refusal = note.refusal, refusal != "invalid", !note.rules.contains(refusal) {
            metadata["refusal"] = .string(refusal)
        }
        logger.log(
            level: status < 400 ? .info : status < 500 ? .notice : .warning, "request answered", metadata: metadata)
    }
}
