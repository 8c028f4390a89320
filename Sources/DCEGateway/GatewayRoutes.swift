import DCEEngine
import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore

extension Gateway {
    /// Adds `POST /v1/requests`, `GET /v1/schemas` (with ETag, `If-None-Match` and `X-DCE-Signature`), `GET
    /// /metrics`, and for operators and integrators `GET /openapi.json`, `GET /healthz` and `GET /readyz`; another
    /// method on one of these paths is answered 405 with `Allow`.
    ///
    /// `POST /v1/requests` takes only `application/json` (415 otherwise) and bodies up to
    /// ``Limits/maxBodyBytes`` (413 beyond), and validates on the gateway's own threads (503 with `Retry-After`
    /// when they are saturated). Use ``application(router:address:serverName:logger:onServerRunning:)`` to get the
    /// connection limits and timeouts as well.
    ///
    /// - Parameter router: The application's router.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = GatewayRoutes<Context>(gateway: self)
        router.addRoutes(routes.collection)
        router.add(middleware: MethodNotAllowedMiddleware(allowed: routes.allowed))
    }
}

/// The gateway's routes and the middleware in front of each: every route but `/metrics` is logged and counted;
/// `POST /v1/requests` is authenticated and its body held to the limits before the envelope is answered.
struct GatewayRoutes<Context: RequestContext> {
    /// The routes, to add to an application's router.
    let collection = RouteCollection(context: Context.self)
    /// The methods of each path, for 405's `Allow`.
    private(set) var allowed: [String: [HTTPRequest.Method]] = [:]

    init(gateway: Gateway) {
        add(.get, "metrics", to: collection) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: gateway.metrics.exposition())))
        }
        let recorded = collection.group()
            .add(middleware: AccessLogMiddleware(log: AccessLog(logger: gateway.logger)))
            .add(middleware: RequestMetricsMiddleware(metrics: gateway.metrics, publisher: gateway.publisher))
        add(.get, "v1/schemas", to: recorded) { request, _ in await Self.catalogue(of: gateway, for: request) }
        add(.get, "openapi.json", to: recorded) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: gateway.openAPIDocument())))
        }
        add(.get, "healthz", to: recorded) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        add(.get, "readyz", to: recorded) { _, _ in
            let readiness = await gateway.readiness()
            var headers: HTTPFields = [.contentType: "application/json"]
            if !readiness.isReady { headers[.retryAfter] = "1" }
            return Response(
                status: readiness.isReady ? .ok : .serviceUnavailable, headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: readiness.json)))
        }
        let envelopes = recorded.group()
            .add(middleware: AuthenticationMiddleware(authentication: gateway.authentication))
            .add(middleware: BodyLimitMiddleware(maxBodyBytes: gateway.limits.maxBodyBytes))
        add(.post, "v1/requests", to: envelopes) { request, _ in
            // The authentication middleware in front has named the caller; without it, nobody may post.
            guard let caller = Exchange.current?.caller else {
                return Gateway.Answer.refusal(401, requestID: "", .unauthenticated, "no credential was checked")
                    .response()
            }
            let body = Array(try await request.body.collect(upTo: gateway.limits.maxBodyBytes).readableBytesView)
            return await gateway.respond(to: body, caller: caller).response()
        }
    }

    /// Adds a route and notes its method for the path.
    private mutating func add(
        _ method: HTTPRequest.Method, _ path: String, to routes: some RouterMethods<Context>,
        _ handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        routes.on(RouterPath(path), method: method, use: handler)
        allowed["/" + path, default: []].append(method)
    }

    /// `GET /v1/schemas`: the catalogue, signed, or 304 when the client has it (synchronised first with a shared
    /// store, so that every instance serves the latest).
    private static func catalogue(of gateway: Gateway, for request: Request) async -> Response {
        if gateway.store.isShared { await gateway.publisher.refresh() }
        let catalogue = gateway.catalogue
        var headers: HTTPFields = [.eTag: catalogue.etag]
        if request.headers[.ifNoneMatch] == catalogue.etag {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        headers[HTTPField.Name("X-DCE-Signature")!] = catalogue.signature
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: catalogue.body)))
    }
}

/// Answers 405 with `Allow` for a method the gateway does not take on one of its paths, where the router would
/// answer 404 (schemathesis's `unsupported_method` check): a client learns the path exists and what it takes.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods of each of the gateway's paths.
    let allowed: [String: [HTTPRequest.Method]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let methods = allowed[request.uri.path], !methods.contains(request.method) else { throw error }
            throw HTTPError(
                .methodNotAllowed, headers: [.allow: methods.map(\.rawValue).joined(separator: ", ")],
                message: "\(request.method.rawValue) is not allowed on \(request.uri.path)")
        }
    }
}
