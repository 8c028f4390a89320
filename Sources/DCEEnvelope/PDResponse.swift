public import DCEEngine

/// The gateway's answer to a ``PDRequest`` (`PDResponse`, seed 004): accepted with a payload, or rejected with
/// the gateway's errors in the same model as local validation errors (path, key, rule, message).
public struct PDResponse: Sendable, Hashable, CustomStringConvertible {
    /// Whether the gateway took the request.
    public enum Status: String, Sendable, Hashable {
        /// Validated and processed; ``PDResponse/payload`` holds the answer.
        case accepted
        /// Refused; ``PDResponse/errors`` says why.
        case rejected
    }

    /// The request this answers.
    public var requestID: String
    /// Accepted or rejected.
    public var status: Status
    /// The answer, following the request schema's `responseSchema`; `null` when it names none.
    public var payload: SchemaValue
    /// Why the request was rejected.
    public var errors: [Violation]
    /// How many further errors were found and not listed: the gateway lists at most its limit per answer.
    public var omittedErrors: Int
    /// Whether errors were left out of ``errors``.
    public var truncated: Bool { omittedErrors > 0 }

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - requestID: The request id.
    ///   - status: Accepted or rejected.
    ///   - payload: The answer.
    ///   - errors: The errors.
    ///   - omittedErrors: How many further errors were left out.
    public init(
        requestID: String, status: Status, payload: SchemaValue = .null, errors: [Violation] = [],
        omittedErrors: Int = 0
    ) {
        self.requestID = requestID
        self.status = status
        self.payload = payload
        self.errors = errors
        self.omittedErrors = omittedErrors
    }

    /// The response as JSON.
    public var json: [UInt8] {
        let errors: [SchemaValue] = errors.map { error in
            var members: [SchemaValue.Member] = [
                .init(key: "path", value: .string(error.path)), .init(key: "key", value: .string(error.key)),
                .init(key: "rule", value: .string(error.rule.rawValue)),
                .init(key: "message", value: .string(error.message)),
            ]
            if let line = error.line, let column = error.column {
                members.append(.init(key: "line", value: .number(DecimalNumber(lexeme: "\(line)"))))
                members.append(.init(key: "column", value: .number(DecimalNumber(lexeme: "\(column)"))))
            }
            return .object(members)
        }
        var members: [SchemaValue.Member] = [
            .init(key: "requestId", value: .string(requestID)), .init(key: "status", value: .string(status.rawValue)),
            .init(key: "payload", value: payload), .init(key: "errors", value: .array(errors)),
        ]
        if omittedErrors > 0 {
            members.append(.init(key: "omittedErrors", value: .number(DecimalNumber(lexeme: "\(omittedErrors)"))))
        }
        return Array(SchemaValue.object(members).json.utf8)
    }

    /// Reads a response.
    ///
    /// - Parameter json: The response body.
    /// - Throws: ``/DCEEngine/ValidatorError`` (`encoding`) naming what is wrong, when it is not a response.
    public init(json: [UInt8]) throws(ValidatorError) {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: json)
        } catch {
            throw ValidatorError(
                code: .encoding, message: "the response is not well-formed JSON: \(error.message)", cause: error)
        }
        guard case .object(let members) = SchemaValue(document: document, at: document.root) else {
            throw ValidatorError(code: .encoding, message: "the response is not a JSON object")
        }
        func member(_ key: String, in members: [SchemaValue.Member]) -> SchemaValue? {
            members.first { $0.key == key }?.value
        }
        func string(_ key: String, in members: [SchemaValue.Member]) throws(ValidatorError) -> String {
            guard case .string(let text) = member(key, in: members) else {
                throw ValidatorError(code: .encoding, message: "the response needs a string '\(key)'")
            }
            return text
        }
        requestID = try string("requestId", in: members)
        guard let status = Status(rawValue: try string("status", in: members)) else {
            throw ValidatorError(
                code: .encoding, message: "the response's 'status' is neither 'accepted' nor 'rejected'")
        }
        self.status = status
        payload = member("payload", in: members) ?? .null
        var errors: [Violation] = []
        if case .array(let entries)? = member("errors", in: members) {
            for entry in entries {
                guard case .object(let fields) = entry else {
                    throw ValidatorError(code: .encoding, message: "each of the response's 'errors' must be an object")
                }
                var violation = Violation(
                    path: try string("path", in: fields), key: try string("key", in: fields),
                    rule: ViolationCode(rawValue: try string("rule", in: fields)),
                    message: try string("message", in: fields))
                if case .number(let line)? = member("line", in: fields),
                    case .number(let column)? = member("column", in: fields)
                {
                    violation.line = Int(line.lexeme)
                    violation.column = Int(column.lexeme)
                }
                errors.append(violation)
            }
        }
        self.errors = errors
        if case .number(let count)? = member("omittedErrors", in: members), let omitted = Int(count.lexeme),
            omitted >= 0
        {
            omittedErrors = omitted
        } else {
            omittedErrors = 0
        }
    }

    /// The request id, status and error count.
    public var description: String {
        let omitted = omittedErrors > 0 ? " (\(omittedErrors) more not listed)" : ""
        return
            "PDResponse(\(requestID), \(status.rawValue), \(errors.count) error\(errors.count == 1 ? "" : "s")\(omitted))"
    }
}
