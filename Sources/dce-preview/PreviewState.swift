import DCECommandLine
import DCEEngine
import DCEForms
import Foundation

/// Where the schemas come from, loaded again when `--watch` sees a file change.
struct SchemaLoading: Sendable {
    let catalogue: CatalogueOptions
    let schemas: String?

    /// The validator, or the run ends (exit status 2 with the problems, 3 without a catalogue).
    func load() throws -> Validator {
        try SchemaChoice(catalogue: catalogue, schemas: schemas, ids: nil).validator
    }

    private var source: SchemaSource { schemas.map { .directory(URL(fileURLWithPath: $0)) } ?? .bundled }

    /// The validator, or the problems that keep the schemas from compiling (lint's: file, pointer, line, column).
    func reload() -> Result<Validator, SchemaError> {
        Result { () throws(SchemaError) in try Validator(source: source) }
    }

    /// The code lists the page offers countries and currencies from: the folder's, else the bundled ones.
    func referenceData() -> ReferenceData? {
        (try? ReferenceData.load(from: source)) ?? (try? ReferenceData.load(from: .bundled))
    }
}

/// What a page chose: schema, language, context values and tender type (the URL's query holds them).
struct Choice: Sendable, Hashable, Codable {
    var schema: String
    var language: String
    var context: [String: String]
    var tenderType: String?
}

/// The preview's state: the schemas in force (or the problems that keep them from compiling), a `FormModel` per open
/// page (the model an app's screen binds to, on the main actor as there), and the pages watching for schema changes.
@MainActor
final class PreviewState {
    nonisolated let loading: SchemaLoading
    /// The schema a page without a choice shows.
    nonisolated let first: String
    /// The language a page without a choice speaks.
    nonisolated let language: String
    /// Other documents the schemas' `existsIn` refer to, by schema id.
    nonisolated let related: [String: JSONDocument]
    /// The code lists the page's country and currency selects offer.
    nonisolated let reference: ReferenceData?
    /// The schemas in force; the last ones that compiled while ``problems`` is set.
    private(set) var validator: Validator
    /// Why the schemas on disk do not compile now; `nil` when they do.
    private(set) var problems: SchemaError?
    /// Counts the schema reloads: a session made before the last one is rebuilt on its draft.
    private(set) var generation = 0
    /// The most sessions kept; the least recently used goes first.
    static let maxSessions = 64

    private struct Entry {
        var form: FormModel
        var choice: Choice
        var generation: Int
        var used: UInt64
    }

    private var sessions: [String: Entry] = [:]
    private var clock: UInt64 = 0
    private var watchers: [UUID: AsyncStream<Int>.Continuation] = [:]

    nonisolated init(
        loading: SchemaLoading, initial: Validator, first: String, language: String, related: [String: JSONDocument]
    ) {
        self.loading = loading
        self.validator = initial
        self.first = first
        self.language = language
        self.related = related
        self.reference = loading.referenceData()
    }

    /// The request schemas, sorted: what the schema picker offers.
    var requestSchemaIDs: [String] {
        validator.schemaIDs.filter { validator.schema($0)?.kind == .request }
    }

    /// The prepared schema for a choice, with the related documents its fields refer to.
    func prepare(_ choice: Choice) throws(ValidatorError) -> PreparedSchema {
        let messages = try MessageCatalogue.bundled(language: choice.language)
        let prepared = try validator.prepare(
            choice.schema, context: choice.context, tenderType: choice.tenderType, messages: messages)
        // A document goes to the schemas that refer to it (relating refuses one a schema does not name).
        return related.sorted { $0.key < $1.key }.reduce(prepared) { prepared, document in
            (try? prepared.relating([document.key: document.value])) ?? prepared
        }
    }

    /// Starts a form for a page.
    func open(_ choice: Choice) throws(ValidatorError) -> (id: String, state: StateBody) {
        let form = try FormModel(prepare(choice))
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        let id = bytes.map { String(format: "%02x", $0) }.joined()
        clock += 1
        sessions[id] = Entry(form: form, choice: choice, generation: generation, used: clock)
        if sessions.count > Self.maxSessions, let oldest = sessions.min(by: { $0.value.used < $1.value.used })?.key {
            sessions[oldest] = nil
        }
        return (id, StateBody(form))
    }

    /// Applies a page's edits to its form (made again first on the schemas now in force, when they changed, keeping
    /// what was typed), and returns what the page shows of it. `nil` for a form this server does not hold (expired,
    /// or from before a restart).
    func edit(_ id: String, _ edits: [EditRequest.Edit] = []) throws(ValidatorError) -> StateBody? {
        try reading(id, edits) { StateBody($0) }
    }

    /// What `body` reads of a page's form after `edits`; `nil` for a form this server does not hold.
    func reading<Answer: Sendable>(
        _ id: String, _ edits: [EditRequest.Edit] = [], _ body: @MainActor (FormModel) -> Answer
    )
        throws(ValidatorError) -> Answer?
    {
        guard var entry = sessions[id] else { return nil }
        if entry.generation != generation {
            try entry.form.use(prepare(entry.choice))
            entry.generation = generation
        }
        clock += 1
        entry.used = clock
        sessions[id] = entry
        // A batch is applied whole or not at all: a refused edit leaves the form as the page last saw it.
        let before = edits.isEmpty ? nil : entry.form.request().json
        do throws(ValidatorError) {
            for edit in edits {
                switch edit.op {
                case "set": try entry.form.set(edit.value ?? "", at: edit.path)
                case "remove": try entry.form.remove(at: edit.path)
                case "add": try entry.form.addItem(to: edit.path)
                default: throw ValidatorError(code: .invalidDraft, message: "no edit '\(edit.op)'")
                }
            }
        } catch {
            if let before { sessions[id]?.form = try FormModel(prepare(entry.choice), draft: before) }
            throw error
        }
        return body(entry.form)
    }

    /// Compiles the schemas again after a change on disk, and tells every watching page.
    func reload() {
        switch loading.reload() {
        case .success(let reloaded):
            validator = reloaded
            problems = nil
        case .failure(let error):
            problems = error
        }
        generation += 1
        for continuation in watchers.values { continuation.yield(generation) }
    }

    /// A stream of reload generations for one page's server-sent events; it ends when the page goes.
    func watch() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        watchers[id] = continuation
        continuation.onTermination = { _ in Task { @MainActor in self.unwatch(id) } }
        return stream
    }

    private func unwatch(_ id: UUID) { watchers[id] = nil }
}
