import DCECommandLine
import DCEEngine
import DCEForms
import Foundation
import Hummingbird
import Mustache
import ServiceLifecycle

/// The page's template and files, from the executable's resources.
struct Page: Sendable {
    let template: MustacheTemplate
    let script: String
    let style: String

    static func load() throws -> Page {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw PreviewError("the page's files are missing beside dce-preview (its .resources folder)")
        }
        func read(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return Page(
            template: try MustacheTemplate(string: read("page.mustache")), script: try read("preview.js"),
            style: try read("preview.css"))
    }
}

struct PreviewError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The preview's routes: the page, its script and style, the session API the page drives (every value in a POST
/// body), and with `--watch` the server-sent events that tell the page the schemas changed.
struct PreviewRoutes: Sendable {
    let state: PreviewState
    let page: Page
    let watching: Bool

    /// The most bytes a request body may have: a form's draft is far smaller.
    static let maxBody = 1 << 20

    static let languageNames = ["en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "bg": "Български"]

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in try await self.page(for: request) }
        router.get("/preview.js") { _, _ in
            Self.text(page.script, type: "text/javascript; charset=utf-8")
        }
        router.get("/preview.css") { _, _ in Self.text(page.style, type: "text/css; charset=utf-8") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.post("/api/session") { request, _ in
            let choice = try await Self.decode(Choice.self, from: request)
            if let problems = await state.problems { return try Self.json(ProblemsAnswer(problems)) }
            do {
                let (id, body) = try await state.open(choice)
                return try Self.json(SessionAnswer(session: id, state: body))
            } catch let error as ValidatorError {
                return try Self.json(ErrorAnswer(error: error.message), status: .badRequest)
            }
        }
        router.post("/api/edit") { request, _ in
            let body = try await Self.decode(EditRequest.self, from: request)
            return try await answer(body.session, body.edits)
        }
        router.post("/api/state") { request, _ in
            let body = try await Self.decode(SessionRequest.self, from: request)
            return try await answer(body.session, [])
        }
        router.post("/api/request") { request, _ in
            try await reading(request) { ["request": String(decoding: $0.formSession.request, as: UTF8.self)] }
        }
        router.post("/api/example") { request, _ in
            try await reading(request) {
                [
                    "example": String(decoding: $0.formSession.example, as: UTF8.self),
                    "file": "\($0.schema.schema.id)-example.json",
                ]
            }
        }
        if watching {
            router.get("/events") { _, _ in
                let generations = await state.watch()
                let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
                return Response(
                    status: .ok, headers: headers,
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: ": watching\n\n"))
                        for await generation in generations.cancelOnGracefulShutdown() {
                            try await writer.write(ByteBuffer(string: "event: schemas\ndata: \(generation)\n\n"))
                        }
                        try await writer.finish(nil)
                    })
            }
        }
    }

    /// The state of a page's form after its edits; the schemas' problems when they no longer compile; 410 for a
    /// form this server does not hold; 400 with the engine's message for an edit it refuses.
    private func answer(_ id: String, _ edits: [EditRequest.Edit]) async throws -> Response {
        if let problems = await state.problems { return try Self.json(ProblemsAnswer(problems)) }
        do {
            guard let body = try await state.edit(id, edits) else {
                return try Self.json(ErrorAnswer(error: "expired"), status: .gone)
            }
            return try Self.json(StateAnswer(state: body))
        } catch let error as ValidatorError {
            return try Self.json(ErrorAnswer(error: error.message), status: .badRequest)
        }
    }

    /// What `body` reads of the form a request names; 410 for a form this server does not hold.
    private func reading(
        _ request: Request, _ body: @MainActor @Sendable (FormModel) -> [String: String]
    ) async throws -> Response {
        let named = try await Self.decode(SessionRequest.self, from: request)
        guard let answer = try? await state.reading(named.session, [], body) else {
            return try Self.json(ErrorAnswer(error: "expired"), status: .gone)
        }
        return try Self.json(answer)
    }

    // MARK: - The page

    private func page(for request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let language =
            query["language"].map(String.init).flatMap {
                MessageCatalogue.bundledLanguages.contains($0) ? $0 : nil
            } ?? state.language
        let messages = ((try? MessageCatalogue.bundled(language: language)) ?? .english).adding(.commandLine)
        let validator = await state.validator
        let schemaIDs = await state.requestSchemaIDs
        let requested = query["schema"].map(String.init) ?? state.first
        let schemaID = schemaIDs.contains(requested) ? requested : state.first
        var context: [String: String] = [:]
        for (key, value) in query where key.hasPrefix("context.") && !value.isEmpty {
            context[String(key.dropFirst("context.".count))] = String(value)
        }
        let tenderType = query["tenderType"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let choice = Choice(schema: schemaID, language: language, context: context, tenderType: tenderType)
        var refusal: String? = schemaIDs.contains(requested) ? nil : "no request schema '\(requested)'"
        if refusal == nil {
            do {
                _ = try await state.prepare(choice)
            } catch {
                refusal = error.message
            }
        }
        let compiled = validator.schema(schemaID)
        func term(_ key: String) -> String { messages.phrase(key) }
        let title = (try? compiled?.describeForm(language: language).title) ?? nil
        var contexts: [[String: Any]] = []
        for name in compiled?.contextNames ?? [] {
            let values = compiled?.allowedValues(of: name) ?? []
            contexts.append([
                "name": name, "label": name,
                "options": [["value": "", "label": term("preview.not-given"), "selected": context[name] == nil]]
                    + values.map { ["value": $0, "label": $0, "selected": context[name] == $0] },
            ])
        }
        let tenderTypes = compiled?.tenderTypes ?? []
        let problems = await state.problems
        let config: [String: Any] = [
            "choice": [
                "schema": schemaID, "language": language, "context": context,
                "tenderType": tenderType.map { $0 as Any } ?? NSNull(),
            ],
            "watching": watching,
            "terms": Dictionary(
                uniqueKeysWithValues: [
                    "validate", "show-request", "save-example", "add-item", "remove-item", "problems", "valid",
                    "required", "ignored", "request", "schema-problems",
                ].map { ($0, term("preview." + $0)) }
                    + ["empty", "incomplete", "valid", "invalid"].map { ("state." + $0, term("input." + $0)) }),
            "brandPhrase": term("input.brand"),
            "countries": state.reference.map { reference in
                reference.countries.codes.map { [$0.code, reference.countries.name(of: $0.code, in: language)] }
            } ?? [],
            "currencies": state.reference.map { reference in
                reference.currencies.codes.map { [$0.code, reference.currencies.name(of: $0.code, in: language)] }
            } ?? [],
        ]
        let configJSON = String(
            decoding: try JSONSerialization.data(withJSONObject: config, options: [.sortedKeys]), as: UTF8.self
        ).replacingOccurrences(of: "<", with: "\\u003c")
        var data: [String: Any] = [
            "language": language,
            "title": title ?? schemaID,
            "schemaID": schemaID,
            "schemas": schemaIDs.map { id in
                [
                    "id": id, "selected": id == schemaID,
                    "title": ((try? validator.schema(id)?.describeForm(language: language).title) ?? nil) ?? id,
                ] as [String: Any]
            },
            "languages": MessageCatalogue.bundledLanguages.map {
                ["code": $0, "name": Self.languageNames[$0] ?? $0, "selected": $0 == language] as [String: Any]
            },
            "contexts": contexts,
            "hasTenderTypes": !tenderTypes.isEmpty,
            "tenderTypes": [["value": "", "label": term("preview.not-given"), "selected": tenderType == nil]]
                + tenderTypes.map { ["value": $0, "label": $0, "selected": tenderType == $0] },
            "terms": [
                "schema": term("preview.schema"), "language": term("preview.language"),
                "tenderType": term("preview.tender-type"), "validate": term("preview.validate"),
                "showRequest": term("preview.show-request"), "saveExample": term("preview.save-example"),
                "problems": term("preview.problems"), "schemaProblems": term("preview.schema-problems"),
                "request": term("preview.request"),
            ],
            "problems": (problems?.problems ?? []).map { problem in
                [
                    "file": problem.location.file, "pointer": problem.location.pointer,
                    "line": problem.location.position.map { String($0.line) } ?? "",
                    "column": problem.location.position.map { String($0.column) } ?? "",
                    "message": problem.message, "code": problem.code.rawValue,
                ]
            },
            "hasProblems": problems != nil,
            "config": configJSON,
        ]
        if let refusal { data["error"] = refusal }
        return Self.text(
            page.template.render(data), type: "text/html; charset=utf-8", status: refusal == nil ? .ok : .badRequest)
    }

    // MARK: - Bodies

    private static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBody)
        } catch {
            throw HTTPError(.contentTooLarge, message: "a request body has at most \(maxBody) bytes")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch {
            // Not the decoder's words: they may quote what was sent.
            throw HTTPError(.badRequest, message: "the body is not the JSON this route takes")
        }
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: type, .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:",
                .init("Referrer-Policy")!: "no-referrer",
            ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

// MARK: - What the page sends and gets

struct SessionRequest: Decodable {
    let session: String
}

struct EditRequest: Decodable {
    struct Edit: Decodable {
        let op: String
        let path: String
        let value: String?
    }
    let session: String
    let edits: [Edit]
}

struct SessionAnswer: Encodable {
    let session: String
    let state: StateBody
}

struct StateAnswer: Encodable {
    let state: StateBody
}

struct ErrorAnswer: Encodable {
    let error: String
}

struct ProblemsAnswer: Encodable {
    struct Problem: Encodable {
        let file: String
        let pointer: String
        let line: Int?
        let column: Int?
        let code: String
        let message: String
    }
    let problems: [Problem]

    init(_ error: SchemaError) {
        problems = error.problems.map {
            Problem(
                file: $0.location.file, pointer: $0.location.pointer, line: $0.location.position?.line,
                column: $0.location.position?.column, code: $0.code.rawValue, message: $0.message)
        }
    }
}

/// A form's state as the page reads it: never a value, only states, messages (which name no value), masked forms,
/// brands and what each field is now.
struct StateBody: Encodable {
    struct Brand: Encodable {
        let id: String
        let name: String
        let securityCodeName: String
        let securityCodeLength: Int
    }

    struct Subdivision: Encodable {
        let key: String
        let name: String?
    }

    struct Field: Encodable {
        let path: String
        let key: String
        let label: String
        /// What kind of input it takes (`FormField.Kind`): the control the page makes.
        let kind: String
        /// The HTML `autocomplete` token of its autofill hint.
        let contentType: String?
        let placeholder: String?
        let help: String?
        let accessibilityLabel: String
        let state: String
        let rule: String?
        let message: String?
        let required: Bool
        let forbidden: Bool
        let forbiddenReason: String?
        let ignored: Bool
        /// The masking policy's: the control hides what is typed (a PIN, a security code).
        let secret: Bool
        let masking: Bool
        let masked: String?
        let minLength: Int?
        let maxLength: Int?
        let options: [String]?
        let choices: [String]?
        let brand: Brand?
        let brands: [String]?
        let itemCount: Int?
        let examples: [String]?
        let subdivisions: [Subdivision]?
        let partName: String?
    }

    struct Group: Encodable {
        let dataGroup: String?
        let title: String
        var fields: [Field]
    }

    struct Violation: Encodable {
        let path: String
        let rule: String
        let message: String
    }

    let schema: String
    let valid: Bool
    let groups: [Group]
    let violations: [Violation]

    /// What the page shows of a form: every field the model lists (those not in force too, which the page shows
    /// disabled or skipped), each as the model words it.
    @MainActor
    init(_ form: FormModel) {
        schema = form.schema.schema.id
        valid = form.canSubmit
        var groups: [Group] = []
        for field in form.allFields {
            let described = field.sessionField?.description
            let entry = Field(
                path: field.path, key: described?.key ?? "", label: field.label, kind: field.kind.rawValue,
                contentType: field.contentType?.htmlToken, placeholder: field.placeholder, help: field.help,
                accessibilityLabel: field.accessibilityLabel, state: field.state.rawValue, rule: field.rule?.rawValue,
                message: field.isForbidden ? nil : field.message, required: field.isRequired,
                forbidden: field.isForbidden, forbiddenReason: field.isForbidden ? field.message : nil,
                ignored: field.sessionField?.ignored ?? false, secret: field.isSecret,
                masking: field.exposure == .maskedForm || field.kind == .cardNumber,
                masked: field.exposure == .maskedForm && !field.display.isEmpty && !field.isEditing
                    ? field.display : nil,
                minLength: field.minLength, maxLength: field.maxLength, options: field.options,
                choices: field.sessionField?.choices,
                brand: field.brand.map {
                    Brand(
                        id: $0.id, name: $0.name, securityCodeName: $0.securityCodeName,
                        securityCodeLength: $0.securityCodeLength)
                }, brands: field.kind == .cardNumber ? field.candidateBrands.map(\.id) : nil,
                itemCount: field.itemCount, examples: described?.address?.examples,
                subdivisions: described?.address?.subdivisions?.map { Subdivision(key: $0.key, name: $0.name) },
                partName: described?.address?.name)
            if let last = groups.last, last.dataGroup == field.dataGroup, last.title == field.groupTitle {
                groups[groups.count - 1].fields.append(entry)
            } else {
                groups.append(Group(dataGroup: field.dataGroup, title: field.groupTitle, fields: [entry]))
            }
        }
        self.groups = groups
        violations = form.violations.map { Violation(path: $0.path, rule: $0.rule.rawValue, message: $0.message) }
    }
}
