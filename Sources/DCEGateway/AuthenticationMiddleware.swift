import Foundation
import HTTPTypes
import Hummingbird

/// Knows who calls before anything of the request is read: the `Authorization` field's API key or bearer token
/// (``Authentication``) becomes the exchange's caller; without a valid credential the answer is 401 with
/// `WWW-Authenticate: Bearer`, and what failed (none, malformed, unknown, revoked, expired) is not said.
struct AuthenticationMiddleware<Context: RequestContext>: RouterMiddleware {
    let authentication: Authentication

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let caller = await authentication.caller(authorization: request.headers[.authorization]) else {
            return Gateway.Answer.refusal(
                401, requestID: "", .unauthenticated,
                "this request needs a valid credential: Authorization: Bearer KEY_OR_TOKEN"
            ).response()
        }
        return try await Exchange.recording { exchange in
            exchange.caller = caller
            return try await next(request, context)
        }
    }
}
