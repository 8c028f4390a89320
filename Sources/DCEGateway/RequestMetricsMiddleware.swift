import Foundation
import Hummingbird

/// The request counters of `GET /metrics`, once the route has answered: by path, status and schema; by caller; the
/// validation time by schema; what became of request ids; refusals by reason. Schema labels are only the ids the
/// catalogue served knows (`unknown` otherwise), so a client cannot add series at will.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: GatewayMetrics
    let publisher: CataloguePublisher

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try await Exchange.recording { exchange in
            let response = try await next(request, context)
            metrics.count(
                exchange.note, path: context.endpointPath ?? request.uri.path, status: response.status.code,
                publisher: publisher)
            return response
        }
    }
}

extension GatewayMetrics {
    /// Counts one exchange from its note.
    func count(_ note: Gateway.Note, path: String, status: Int, publisher: CataloguePublisher) {
        let schema = note.schema.map(publisher.knownSchema)
        answered(path: path, status: status, schema: schema)
        if let caller = note.caller { answered(caller: caller, status: status) }
        if let seconds = note.validation, let schema { validated(schema: schema, in: seconds) }
        if let outcome = note.idempotency { idempotency(outcome) }
        if let reason = note.refusal { refused(reason) }
    }
}
