public import DCEPattern
public import Foundation

// An app that imports DCEEngine chooses its match limits without importing DCEPattern, which is the engine's own.
@_exported public import struct DCEPattern.MatchLimits

/// Compiled schemas ready to validate requests: build one once, then share it with every task that validates.
///
/// ```swift
/// let validator = try Validator()                       // the schemas bundled with the package
/// let report = try validator.validate(
///     json: Array(payload.utf8), schema: "card-create", context: ["region": "US"])
/// if !report.valid { for error in report.errors { print(error.path, error.rule, error.message) } }
/// ```
///
/// A `Validator` is an immutable value: every pattern is compiled when it is built, and validation only reads it.
public struct Validator: Sendable {
    private let schemas: [String: CompiledSchema]
    package let now: @Sendable () -> Date
    /// The schemas typed requests were validated with, prepared once per schema, context and tender type.
    private let preparedForTypes = PreparedCache()

    /// Loads and compiles schemas.
    ///
    /// - Parameters:
    ///   - source: Where the schema files are; the package's bundled schemas by default.
    ///   - schemaIDs: The schemas to compile (with what they reference, and their `responseSchema`); every schema of
    ///     the source when `nil`.
    ///   - matchLimits: The limits applied to every regex match.
    ///   - now: The clock for rules that depend on the date (`card-expiry`); the system clock by default.
    /// - Throws: ``SchemaError`` listing every problem found, with file, JSON Pointer, line and column.
    public init(
        source: SchemaSource = .bundled, schemaIDs: [String]? = nil, matchLimits: MatchLimits = .default,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(SchemaError) {
        try self.init(
            source: source, schemaIDs: schemaIDs, matchLimits: matchLimits, now: now, ruleKinds: ObjectRuleKinds.builtIn
        )
    }

    /// Loads and compiles schemas in a schema language with the given kinds of object rule (a kind being written,
    /// in its tests).
    init(
        source: SchemaSource, schemaIDs: [String]?, matchLimits: MatchLimits, now: @escaping @Sendable () -> Date,
        ruleKinds: [any ObjectRuleKind.Type]
    ) throws(SchemaError) {
        self.now = now
        let ids: [String]
        if let schemaIDs { ids = schemaIDs } else { ids = try source.schemaIDs() }
        let reference = try ReferenceData.load(from: source)
        var loader = SchemaLoader(source: source, ruleKinds: ruleKinds)
        var compiled: [String: CompiledSchema] = [:]
        var problems: [SchemaProblem] = []
        var pending = ids
        var seen: Set<String> = []
        while let id = pending.first {
            pending.removeFirst()
            guard seen.insert(id).inserted else { continue }
            var resolver = ReferenceResolver(loader: loader)
            defer { loader = resolver.loader }  // each file is read and decoded once, however many schemas use it
            do throws(SchemaError) {
                let resolved = try resolver.resolve(id)
                var compiler = RuleCompiler(limits: matchLimits, reference: reference)
                let schema = try compiler.compile(resolved)
                let defaults = schema.defaultValueProblems()
                guard defaults.isEmpty else { throw SchemaError(problems: defaults) }
                compiled[id] = schema
                // The schema of the gateway's answer comes along, so that answers can be checked.
                if let response = schema.responseSchema { pending.append(response) }
            } catch {
                problems.append(contentsOf: error.problems)
            }
        }
        // A gateway accepts only requests: the schema of its answers must say it is a response, or it could be posted.
        for schema in compiled.values.sorted(by: { $0.id < $1.id }) {
            guard let id = schema.responseSchema, let response = compiled[id], response.kind != .response else {
                continue
            }
            problems.append(
                SchemaProblem(
                    code: .invalidAttribute,
                    message:
                        "'\(id)' is the responseSchema of '\(schema.id)', so it must say \"kind\": \"response\" (it says '\(response.kind.rawValue)')",
                    location: SchemaLocation(file: response.file, pointer: "/kind", position: nil)))
        }
        guard problems.isEmpty else { throw SchemaError(problems: problems) }
        self.schemas = compiled
    }

    /// The ids of the compiled schemas, sorted.
    public var schemaIDs: [String] { schemas.keys.sorted() }

    /// A compiled schema by id.
    ///
    /// - Parameter id: The schema id.
    /// - Returns: The schema, or `nil` when it was not compiled.
    public func schema(_ id: String) -> CompiledSchema? { schemas[id] }

    /// Validates a JSON payload.
    ///
    /// - Parameters:
    ///   - json: The payload as UTF-8 bytes.
    ///   - schema: The schema id.
    ///   - context: Context values such as `["region": "US"]`; each must be declared by the schema.
    ///   - tenderType: The payment type (`credit`, `debit`, `gift`, …) whose overrides apply.
    ///   - limits: The JSON reader's limits.
    /// - Returns: The report. A payload that is not JSON is invalid with rule `json`, not an error.
    /// - Throws: ``ValidatorError`` when the schema, a context or the tender type is unknown.
    public func validate(
        json: [UInt8], schema: String, context: [String: String] = [:], tenderType: String? = nil,
        limits: JSONLimits = .default
    ) throws(ValidatorError) -> ValidationReport {
        try prepare(schema, context: context, tenderType: tenderType).validate(json: json, limits: limits)
    }

    /// Checks a schema id, context and tender type once, for validating many payloads with them.
    ///
    /// - Parameters:
    ///   - schema: The schema id.
    ///   - context: Context values; each must be declared by the schema.
    ///   - tenderType: The payment type whose overrides apply.
    ///   - messages: The language of the reports' messages (``MessageCatalogue/english`` unless given).
    /// - Returns: The prepared schema.
    /// - Throws: ``ValidatorError`` when the schema, a context or the tender type is unknown.
    public func prepare(
        _ schema: String, context: [String: String] = [:], tenderType: String? = nil,
        messages: MessageCatalogue = .english
    ) throws(ValidatorError) -> PreparedSchema {
        try PreparedSchema(
            schema: lookUp(schema), context: context, tenderType: tenderType, messages: messages, now: now)
    }

    /// Validates a JSON payload held in `Data`.
    ///
    /// - Parameters:
    ///   - json: The payload.
    ///   - schema: The schema id.
    ///   - context: Context values.
    ///   - tenderType: The payment type.
    /// - Returns: The report.
    /// - Throws: ``ValidatorError`` when the schema, a context or the tender type is unknown.
    public func validate(
        json: Data, schema: String, context: [String: String] = [:], tenderType: String? = nil
    ) throws(ValidatorError) -> ValidationReport {
        try validate(json: [UInt8](json), schema: schema, context: context, tenderType: tenderType)
    }

    /// Validates a typed request against the schema it names.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Context values such as `["region": "US"]`.
    ///   - tenderType: The payment type whose overrides apply.
    /// - Returns: The report; violations carry paths but no line and column.
    /// - Throws: ``ValidatorError`` when the schema, a context or the tender type is unknown, or the request
    ///   cannot be encoded.
    public func validate<Request: ValidatableRequest>(
        _ request: Request, context: [String: String] = [:], tenderType: String? = nil
    ) throws(ValidatorError) -> ValidationReport {
        let entry = try prepared(for: Request.self, context: context, tenderType: tenderType)
        return try written(request) { entry.prepared.validate($0, positions: false) }
    }

    /// Whether a typed request breaks no rule of the schema it names: the verdict of ``validate(_:context:tenderType:)``
    /// without a report (``PreparedSchema/isValid(_:)``).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Context values such as `["region": "US"]`.
    ///   - tenderType: The payment type whose overrides apply.
    /// - Returns: `true` when the request is valid.
    /// - Throws: ``ValidatorError`` when the schema, a context or the tender type is unknown, or the request cannot
    ///   be encoded.
    public func isValid<Request: ValidatableRequest>(
        _ request: Request, context: [String: String] = [:], tenderType: String? = nil
    ) throws(ValidatorError) -> Bool {
        let entry = try prepared(for: Request.self, context: context, tenderType: tenderType)
        return try written(request) { entry.prepared.isValid($0) }
    }

    /// The schema a typed request names, prepared for a context and tender type once and kept: preparing it on
    /// every call cost about as much as validating a small request.
    private func prepared<Request: ValidatableRequest>(
        for request: Request.Type, context: [String: String], tenderType: String?
    ) throws(ValidatorError) -> PreparedCache.Entry {
        // The commonest call, with no context and no tender type, is found by the type alone: hashing the key's
        // strings cost a tenth of validating a small request.
        if context.isEmpty, tenderType == nil {
            if let found = preparedForTypes[type: ObjectIdentifier(Request.self)] { return found }
            let made = PreparedCache.Entry(try prepare(Request.schemaID))
            preparedForTypes[type: ObjectIdentifier(Request.self)] = made
            return made
        }
        let key = PreparedCache.Key(schema: Request.schemaID, context: context, tenderType: tenderType)
        if let found = preparedForTypes[key] { return found }
        let made = PreparedCache.Entry(try prepare(Request.schemaID, context: context, tenderType: tenderType))
        preparedForTypes[key] = made
        return made
    }

    /// Calls `body` with a typed request as the engine reads it, written into memory kept from an earlier request
    /// and kept again for a later one.
    private func written<Request: ValidatableRequest, Result>(
        _ request: Request, _ body: (JSONDocument) -> Result
    ) throws(ValidatorError) -> Result {
        var writer = DocumentWriter(reusing: WriterMemory.take())
        request.write(to: &writer)
        let document: JSONDocument
        do {
            document = try writer.document()
        } catch {
            WriterMemory.keep(writer.storage(recycling: nil))
            // Never the request's description: it may hold a PIN; nor, in the cause, the value that did not encode.
            throw ValidatorError(
                code: .encoding, message: "\(Request.self) could not be encoded as JSON",
                cause: Self.withoutValue(error))
        }
        let result = body(document)
        WriterMemory.keep(writer.storage(recycling: consume document))
        return result
    }

    /// An encoding error with the value it could not encode replaced by the name of its type, which a request's
    /// secret never is; its coding path, explanation and underlying error are kept. Any other error as it is.
    static func withoutValue(_ error: any Error) -> any Error {
        guard case EncodingError.invalidValue(let value, let context) = error else { return error }
        return EncodingError.invalidValue(String(describing: type(of: value)), context)
    }

    private func lookUp(_ id: String) throws(ValidatorError) -> CompiledSchema {
        guard let schema = schemas[id] else {
            throw ValidatorError(
                code: .unknownSchema, message: "no schema with id '\(id)'\(Suggestion.hint(for: id, in: schemas.keys))")
        }
        return schema
    }
}

/// The memory ``DocumentWriter``s wrote typed requests into, kept by each thread for the next request it writes:
/// writing a small request into fresh memory cost four allocations, about a fifth of validating it. One for the
/// process, whatever the validator, as each thread's evaluation storage is (``EvaluationScratch``): a thread-specific
/// key per validator could run the process out of keys.
enum WriterMemory {
    /// A thread's memory.
    ///
    /// `@unchecked Sendable`: a box is read and written only by the thread it is kept for.
    private final class Box: @unchecked Sendable {
        var storage: DocumentWriter.Storage?
    }

    private static let perThread = ThreadLocalSlot<Box>()

    /// The memory the calling thread kept, or new memory when it kept none.
    static func take() -> DocumentWriter.Storage {
        if let kept = perThread.value?.storage.take() { return kept }
        return DocumentWriter.Storage()
    }

    /// Keeps memory for the calling thread's next request; memory a large document grew is given back.
    static func keep(_ storage: consuming DocumentWriter.Storage) {
        guard storage.isWorthKeeping else { return }
        if let box = perThread.value {
            box.storage = consume storage
        } else {
            let box = Box()
            box.storage = consume storage
            _ = perThread.store(box)
        }
    }
}

/// Prepared schemas by schema id, context and tender type, shared by the copies of a ``Validator``. Bounded: past
/// ``capacity`` entries it starts again (an app validates a handful of combinations; a caller that passes a new
/// context on every call must not grow it without end).
///
/// `@unchecked Sendable`: `entries` is read and written only under `lock`.
final class PreparedCache: @unchecked Sendable {
    struct Key: Hashable {
        var schema: String
        var context: [String: String]
        var tenderType: String?
    }

    /// A prepared schema kept once, and lent: a `PreparedSchema` is a dozen references, and handing out a copy of
    /// it counted each of them up and down again, a tenth of validating a small typed request.
    final class Entry: Sendable {
        let prepared: PreparedSchema

        init(_ prepared: PreparedSchema) { self.prepared = prepared }
    }

    private struct Entries {
        var byKey: [Key: Entry] = [:]
        /// The schemas of typed requests validated with no context and no tender type, by the request's type (whose
        /// `schemaID` names one schema); as many as there are such types in the app.
        var byType: [ObjectIdentifier: Entry] = [:]
    }

    static let capacity = 64
    private let lock = NSLock()
    private var entries = Entries()

    subscript(key: Key) -> Entry? {
        get { lock.withLock { entries.byKey[key] } }
        set {
            lock.withLock {
                if entries.byKey.count >= Self.capacity { entries.byKey.removeAll(keepingCapacity: true) }
                entries.byKey[key] = newValue
            }
        }
    }

    subscript(type type: ObjectIdentifier) -> Entry? {
        get { lock.withLock { entries.byType[type] } }
        set { lock.withLock { entries.byType[type] = newValue } }
    }
}
