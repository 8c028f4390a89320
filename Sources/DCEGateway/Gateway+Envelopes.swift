import Crypto
import DCEEngine
import DCEEnvelope
import DCEFingerprint
import DCEWorkers
import Foundation
import Logging

/// An envelope's way through the gateway once its body is read: admitted (its id, scope and age), its id claimed in
/// the store, opened and validated on a validation thread, held to the card-testing limits, and answered by the
/// backend; or refused at the first step it fails.
extension Gateway {
    /// Answers one envelope, as `POST /v1/requests` does once the body is read: 200 with an accepted `PDResponse`,
    /// 422 with a rejected one listing the errors (at most ``Limits/maxErrorsPerAnswer``), 409 when the request id
    /// belongs to another request or the same request is being processed, 503 when nothing more can be
    /// remembered, the validation threads are saturated or the store cannot be reached. An accepted request's
    /// answer is given again, byte for byte, to the same request (same id, same body) within the replay window; an
    /// envelope older than the window, or without a creation time, is refused.
    ///
    /// The work is done on the gateway's validation threads (``Limits/validationThreads``).
    ///
    /// - Parameters:
    ///   - body: The request body.
    ///   - caller: Who sent it, as the embedding code authenticated it: its scopes must allow the schema (403
    ///     otherwise), and its request ids are its own. ``authentication`` is not asked here.
    /// - Returns: The answer.
    public func handle(envelope body: [UInt8], caller: Caller = .anonymous) async -> Answer {
        let started = ContinuousClock.now
        let answer = await respond(to: body, caller: caller)
        AccessLog(logger: logger).write(
            answer.note, method: "POST", path: "/v1/requests", status: answer.status,
            duration: ContinuousClock.now - started)
        metrics.count(answer.note, path: "/v1/requests", status: answer.status, publisher: publisher)
        return answer
    }

    /// ``handle(envelope:)`` without the access log line and the counters.
    func respond(to body: [UInt8], caller: Caller) async -> Answer {
        var answer = await respondAs(caller, to: body)
        answer.note.caller = caller.name
        return answer
    }

    /// ``respond(to:caller:)`` before the caller is noted.
    func respondAs(_ caller: Caller, to body: [UInt8]) async -> Answer {
        let isLarge = body.count >= limits.largeBodyBytes
        let admission: Admission
        do {
            admission = try await pool.run(isLarge: isLarge) { self.admit(body, caller: caller) }
        } catch {
            return saturated()
        }
        let incoming: IncomingRequest
        let request: IdempotentRequest
        switch admission {
        case .refused(let answer): return answer
        case .admitted(let admitted, let idempotent):
            (incoming, request) = (admitted, idempotent)
        }
        let outcome: IdempotencyOutcome
        do {
            outcome = try await store.once(request) {
                do {
                    let checked = try await self.pool.run(isLarge: isLarge) { self.check(incoming) }
                    guard case .valid(let valid) = checked.verdict else { return checked.answer }
                    return await self.cardTesting.handle(valid, caller: caller) { valid in
                        self.serve(valid, checked: checked.answer)
                    }
                } catch {
                    return self.saturated()
                }
            }
        } catch {
            logger.error(
                "store unavailable", metadata: ["requestId": .string(request.id), "reason": .string(error.message)])
            return Answer.refusal(
                503, requestID: request.id, .storeUnavailable, "the gateway cannot reach its database: retry shortly",
                retryAfter: 1)
        }
        var answer: Answer
        switch outcome {
        case .processed(let processed):
            return processed
        case .replayed(let replayed):
            answer = replayed
            answer.note = Note(
                requestID: request.id, schema: request.schema, schemaVersion: incoming.header.schemaVersion,
                rules: ["replayed"])
        case .conflict:
            answer = Answer.refusal(
                409, requestID: request.id, .idempotencyConflict,
                "the request id '\(request.id)' was used for a different request")
        case .inProgress:
            answer = Answer.refusal(
                409, requestID: request.id, .requestInProgress,
                "the request '\(request.id)' is being processed: retry shortly")
        case .full(let seconds):
            answer = Answer.refusal(
                503, requestID: request.id, .overloaded, "the gateway cannot take more requests now: retry later",
                retryAfter: seconds)
        }
        answer.note.idempotency = Self.idempotencyLabel(outcome)
        return answer
    }

    static func idempotencyLabel(_ outcome: IdempotencyOutcome) -> String? {
        switch outcome {
        case .processed: nil
        case .replayed: "replayed"
        case .conflict: "conflict"
        case .inProgress: "inProgress"
        case .full: "full"
        }
    }

    /// A request's fate before its id is looked up: refused, or admitted with what its store needs.
    enum Admission: Sendable {
        case refused(Answer)
        case admitted(IncomingRequest, IdempotentRequest)
    }

    /// Reads an envelope and checks its id and age.
    func admit(_ body: [UInt8], caller: Caller) -> Admission {
        let incoming: IncomingRequest
        do {
            incoming = try IncomingRequest(json: body)
        } catch {
            return .refused(Answer.refusal(422, requestID: "", .json, error.message))
        }
        let header = incoming.header
        let requestID = header.requestID
        guard !requestID.isEmpty, requestID.utf8.count <= Self.maxRequestIDBytes else {
            return .refused(
                Answer.refusal(
                    422, requestID: "", .json,
                    "the envelope's 'requestId' must have 1 to \(Self.maxRequestIDBytes) bytes"))
        }
        guard caller.mayPost(header.schema) else {
            // The schema is named only when the gateway knows it: the envelope's text is the client's.
            let schema = publisher.knownSchema(header.schema)
            let named = schema == "unknown" ? "this schema" : "'\(schema)': it needs the scope requests:\(schema)"
            var answer = Answer.refusal(
                403, requestID: requestID, .missingScope, "this credential may not post \(named)")
            answer.note.schema = schema
            return .refused(answer)
        }
        guard let created = header.createdAt else {
            return .refused(
                Answer.refusal(
                    422, requestID: requestID, .replayWindow,
                    "the envelope has no 'createdAt': it cannot be told from a replay"))
        }
        let received = now()
        let age = received.timeIntervalSince(created)
        if age > limits.replayWindow.seconds {
            return .refused(
                Answer.refusal(
                    422, requestID: requestID, .replayWindow,
                    "the envelope was created \(Int(age)) s ago, outside the replay window of \(Int(limits.replayWindow.seconds)) s: build a new one"
                ))
        }
        if -age > limits.clockSkew.seconds {
            return .refused(
                Answer.refusal(
                    422, requestID: requestID, .replayWindow,
                    "the envelope was created \(Int(-age)) s in the future, more than the allowed clock skew of \(Int(limits.clockSkew.seconds)) s"
                ))
        }
        // Kept for the replay window plus the skew from now: any copy of the envelope arriving later is refused by age.
        let expires = received.addingTimeInterval((limits.replayWindow + limits.clockSkew).seconds)
        return .admitted(
            incoming,
            IdempotentRequest(
                id: requestID, digest: Array(SHA256.hash(data: body)), schema: header.schema, received: received,
                expires: expires, caller: caller.name))
    }

    /// The answer when the validation threads are saturated.
    func saturated() -> Answer {
        Answer.refusal(503, requestID: "", .overloaded, "the gateway is saturated: retry shortly", retryAfter: 1)
    }

    /// A request opened and validated, ready for the backend.
    struct ValidRequest: Sendable {
        var header: EnvelopeHeader
        var document: JSONDocument
        /// The fingerprints of the card numbers it presents.
        var cards: [String]
    }

    /// What opening and validating a request whose id is claimed came to: its answer when refused, else the request
    /// for the backend (with the answer's note so far: schema, version, validation time).
    func check(_ incoming: IncomingRequest) -> (answer: Answer, verdict: CheckVerdict) {
        let started = ContinuousClock.now
        let verdict = checkUntimed(incoming)
        var answer: Answer
        if case .refused(let refusal) = verdict { answer = refusal } else { answer = Answer(status: 200, body: []) }
        answer.note.schema = incoming.header.schema
        answer.note.schemaVersion = incoming.header.schemaVersion
        answer.note.validation = ContinuousClock.now - started
        return (answer, verdict)
    }

    enum CheckVerdict: Sendable {
        case refused(Answer)
        case valid(ValidRequest)
    }

    /// ``check(_:)`` without the timing.
    func checkUntimed(_ incoming: IncomingRequest) -> CheckVerdict {
        let header = incoming.header
        let validator = publisher.schemas
        let report: ValidationReport
        let payload: [UInt8]?
        do {
            (report, payload) = try validator.accept(incoming, opener: opener, maxErrors: limits.maxErrorsPerAnswer)
        } catch {
            return .refused(
                Answer.refusal(
                    422, requestID: header.requestID, ViolationCode(rawValue: error.code.rawValue), error.message))
        }
        guard report.valid, let payload, let document = try? JSONDocument(bytes: payload) else {
            // The report keeps at most the answer's limit of violations; it counts the rest.
            let response = PDResponse(
                requestID: header.requestID, status: .rejected, errors: Array(report.errors),
                omittedErrors: report.omittedErrors)
            var answer = Answer(status: 422, body: response.json)
            answer.note = Note(
                requestID: header.requestID, rules: report.errors.map(\.rule.rawValue), refusal: "invalid")
            return .refused(answer)
        }
        let cards = (validator.schema(header.schema)?.cardNumbers(in: document) ?? []).map { digits in
            cardFingerprinter.fingerprint(digits.span)
        }
        return .valid(ValidRequest(header: header, document: document, cards: cards))
    }

    /// Answers a valid request from the backend, keeping the note ``check(_:)`` began.
    func serve(_ request: ValidRequest, checked: Answer) -> Answer {
        let result = backend(request.header.schema, SchemaValue(document: request.document, at: request.document.root))
        var answer = Answer(
            status: 200,
            body: PDResponse(requestID: request.header.requestID, status: .accepted, payload: result).json)
        answer.note = checked.note
        answer.note.requestID = request.header.requestID
        return answer
    }
}
