import DCEEngine
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Takes only a JSON body within the gateway's limit: 415 for a body that is not `application/json`, 413 for one
/// larger than ``Gateway/Limits/maxBodyBytes`` (by its `Content-Length` before a byte is read, or once the limit is
/// reached), 400 for one that cannot be read. The route gets the request with its body read.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard Self.isJSON(request.headers[.contentType]) else {
            return refusal(415, .unsupportedMediaType, "the request body must be sent as application/json")
        }
        let tooLarge = "the request body is larger than the gateway's limit of \(maxBodyBytes) bytes"
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBodyBytes {
            return refusal(413, .bodyTooLarge, tooLarge)
        }
        var request = request
        do {
            request.body = RequestBody(buffer: try await request.body.collect(upTo: maxBodyBytes))
        } catch is NIOTooManyBytesError {
            return refusal(413, .bodyTooLarge, tooLarge)
        } catch {
            return refusal(400, .json, "the request body could not be read")
        }
        return try await next(request, context)
    }

    private func refusal(_ status: Int, _ rule: ViolationCode, _ message: String) -> Response {
        var answer = Gateway.Answer.refusal(status, requestID: "", rule, message)
        answer.note.caller = Exchange.current?.caller?.name
        return answer.response()
    }

    /// Whether a `Content-Type` names JSON (`application/json`, with or without parameters).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type =
            contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return type.lowercased() == "application/json"
    }
}
