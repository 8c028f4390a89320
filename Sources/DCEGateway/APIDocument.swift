import DCEEngine
import DCEExport

/// The gateway's OpenAPI 3.1 document, as `GET /openapi.json` serves it: every route with every answer it gives,
/// the request envelope of each request schema of the catalogue being served (its `values` from the schema's own JSON
/// Schema export, so the document always matches the catalogue), and the credentials the gateway takes.
///
/// Made once per catalogue served (``Gateway`` keeps it beside the catalogue): a schema's export holds the address
/// rules of every country, and the request schemas' exports written out run to 3.9 MB. The definitions they share word
/// for word (those address rules) are written once, under `components/schemas`: the document is about 600 KB.
struct APIDocument {
    /// The credentials the gateway takes, which decide the security schemes and whether 401 and 403 are answered.
    var acceptsAPIKeys: Bool
    var acceptsTokens: Bool
    var limits: Gateway.Limits

    /// The document for a catalogue.
    ///
    /// - Parameters:
    ///   - validator: The catalogue's schemas, compiled.
    ///   - version: The catalogue's version.
    /// - Returns: The document as JSON.
    func json(for validator: Validator, version: String) -> [UInt8] {
        Array(document(for: validator, version: version).json.utf8)
    }

    func document(for validator: Validator, version: String) -> SchemaValue {
        let requests = validator.schemaIDs.compactMap { id in
            validator.schema(id).flatMap { $0.kind == .request ? $0 : nil }
        }
        var components = Components()
        for schema in requests {
            components.add(values: schema.exportEnvelopeValues().document, of: schema.id)
        }
        let authenticates = acceptsAPIKeys || acceptsTokens
        var schemas: [SchemaValue.Member] = [
            member("Envelope", envelope(requests)),
            member("EncryptedField", Self.encryptedField),
            member("PDResponse", Self.response),
            member("Violation", Self.violation),
            member("Catalogue", Self.catalogue),
            member("Health", Self.health),
            member("Readiness", Self.readiness),
        ]
        schemas += requests.map { member("Envelope." + $0.id, envelope(of: $0)) }
        schemas += components.schemas
        var componentMembers: [SchemaValue.Member] = [member("schemas", .object(schemas))]
        if authenticates { componentMembers.append(member("securitySchemes", securitySchemes)) }
        return object(
            ("openapi", .string("3.1.0")),
            (
                "info",
                object(
                    ("title", .string("dce-gateway")),
                    ("version", .string(version)),
                    (
                        "description",
                        .string(
                            """
                            The gateway of DCE Validate: it serves the signed schema catalogue and validates every request \
                            envelope again with the same engine, never trusting the client's validation. This document is \
                            made from catalogue \(version); each request schema's envelope carries its values as that \
                            schema's JSON Schema export says.
                            """)
                    )
                )
            ),
            ("jsonSchemaDialect", .string("https://json-schema.org/draft/2020-12/schema")),
            (
                "paths",
                object(
                    ("/v1/requests", object(("post", postRequest(requests, authenticates: authenticates)))),
                    ("/v1/schemas", object(("get", Self.getCatalogue))),
                    ("/openapi.json", object(("get", Self.getDocument))),
                    ("/healthz", object(("get", Self.getHealth))),
                    ("/readyz", object(("get", Self.getReadiness))),
                    ("/metrics", object(("get", Self.getMetrics)))
                )
            ),
            ("components", .object(componentMembers))
        )
    }

    // MARK: - POST /v1/requests

    /// The scopes a caller may hold: `requests:*`, or `requests:SCHEMA` for each request schema.
    private func scopes(_ requests: [CompiledSchema]) -> SchemaValue {
        .array([.string("requests:*")] + requests.map { .string("requests:" + $0.id) })
    }

    private var securitySchemes: SchemaValue {
        var schemes: [SchemaValue.Member] = []
        if acceptsAPIKeys {
            schemes.append(
                member(
                    "apiKey",
                    object(
                        ("type", .string("http")), ("scheme", .string("bearer")),
                        (
                            "description",
                            .string(
                                "An API key made by `dce-gateway keys create --name NAME --scopes requests:SCHEMA`, as `Authorization: Bearer KEY`. Its scopes are the roles listed where it is required."
                            )
                        )
                    )))
        }
        if acceptsTokens {
            schemes.append(
                member(
                    "bearerJWT",
                    object(
                        ("type", .string("http")), ("scheme", .string("bearer")), ("bearerFormat", .string("JWT")),
                        (
                            "description",
                            .string(
                                "A JWT from the issuer the gateway trusts (`--jwks`, `--issuer`, `--audience`), as `Authorization: Bearer TOKEN`; its `scope` claim holds the roles listed where it is required."
                            )
                        )
                    )))
        }
        return .object(schemes)
    }

    private func postRequest(_ requests: [CompiledSchema], authenticates: Bool) -> SchemaValue {
        var responses: [SchemaValue.Member] = [
            member(
                "200",
                Self.answer(
                    "Accepted: the envelope opened and the request validated; `payload` is the backend's answer, following the request schema's `responseSchema` (`null` when it names none). A retry with the same `requestId` and body is answered the same.",
                    links: [
                        member(
                            "retry",
                            object(
                                ("operationId", .string("postRequest")), ("requestBody", .string("$request.body")),
                                (
                                    "description",
                                    .string(
                                        "The same envelope sent again within the replay window: answered the same, byte for byte, and not processed twice."
                                    )
                                )
                            ))
                    ])),
            member("400", Self.answer("The request body could not be read.")),
        ]
        if authenticates {
            responses.append(
                member(
                    "401",
                    Self.answer(
                        "No valid credential (`unauthenticated`): none, a malformed one, or an unknown, revoked or expired one; what failed is not said.",
                        headers: [member("WWW-Authenticate", Self.header("`Bearer realm=\"dce-gateway\"`.", Self.text))]
                    )))
            responses.append(
                member(
                    "403",
                    Self.answer(
                        "The credential lacks the scope for the schema posted (`missingScope`): `requests:SCHEMA` or `requests:*`."
                    )))
        }
        responses += [
            member(
                "409",
                Self.answer(
                    "The `requestId` was used for a different request (`idempotencyConflict`), or the same request is being processed (`requestInProgress`: retry shortly)."
                )),
            member(
                "413",
                Self.answer(
                    "The body is larger than the gateway's limit of \(limits.maxBodyBytes) bytes (`bodyTooLarge`).")),
            member("415", Self.answer("The body is not sent as `application/json` (`unsupportedMediaType`).")),
            member(
                "422",
                Self.answer(
                    "Rejected: not an envelope (`json`), a `requestId` of more than \(Gateway.maxRequestIDBytes) bytes, a `createdAt` outside the replay window of \(Int(limits.replayWindow.seconds)) s (`replayWindow`), an unknown schema or version, a sealed value that does not open or a `pciEncryptionRequired` value in clear, or a request its schema refuses (every rule broken, each with its path, key, rule and message, at most \(limits.maxErrorsPerAnswer); `omittedErrors` counts the rest)."
                )),
            member(
                "429",
                Self.answer(
                    "Card testing (`cardVelocity`): too many card numbers from this caller in a minute, or this card from too many callers in an hour.",
                    headers: [member("Retry-After", Self.retryAfter)])),
            member(
                "503",
                Self.answer(
                    "Saturated (`overloaded`), or the database cannot be reached (`storeUnavailable`): nothing was recorded, retry after `Retry-After` seconds.",
                    headers: [member("Retry-After", Self.retryAfter)])),
        ]
        var operation: [SchemaValue.Member] = [
            member("operationId", .string("postRequest")),
            member("summary", .string("Validate a request envelope again, and answer it")),
            member(
                "description",
                .string(
                    """
                    The envelope an app builds with `makeRequest` after validating the request: its values in clear, every \
                    value marked `pciEncryptionRequired` sealed to the gateway's key (HPKE) in `encryptedFields`. The \
                    gateway opens them, validates the whole request again, limits card testing, and answers from its \
                    backend; a retry with the same `requestId` and body gets the same answer.
                    """)),
            member(
                "requestBody",
                object(
                    ("required", .boolean(true)),
                    (
                        "content",
                        Self.json(Self.reference("Envelope"))
                    ))),
            member("responses", .object(responses)),
        ]
        if authenticates {
            var requirements: [SchemaValue] = []
            if acceptsAPIKeys { requirements.append(object(("apiKey", scopes(requests)))) }
            if acceptsTokens { requirements.append(object(("bearerJWT", scopes(requests)))) }
            operation.append(member("security", .array(requirements)))
        }
        return .object(operation)
    }

    /// Any request schema's envelope, told apart by `schema`.
    private func envelope(_ requests: [CompiledSchema]) -> SchemaValue {
        object(
            ("oneOf", .array(requests.map { Self.reference("Envelope." + $0.id) })),
            (
                "discriminator",
                object(
                    ("propertyName", .string("schema")),
                    (
                        "mapping",
                        .object(requests.map { member($0.id, .string("#/components/schemas/Envelope.\($0.id)")) })
                    ))
            )
        )
    }

    /// The envelope of one request schema.
    private func envelope(of schema: CompiledSchema) -> SchemaValue {
        var context: [SchemaValue.Member] = [member("type", .string("object"))]
        if !schema.contextNames.isEmpty {
            context.append(
                member(
                    "properties",
                    .object(schema.contextNames.map { member($0, object(("type", .string("string")))) })))
            context.append(member("additionalProperties", .boolean(false)))
        } else {
            context.append(member("maxProperties", .number(DecimalNumber(lexeme: "0"))))
        }
        var tenderType: SchemaValue = object(("type", .string("null")))
        if !schema.tenderTypes.isEmpty {
            tenderType = object(
                ("type", .array([.string("string"), .string("null")])),
                ("enum", .array(schema.tenderTypes.sorted().map { .string($0) } + [.null])))
        }
        return object(
            ("type", .string("object")),
            ("title", .string("\(schema.name ?? schema.id) (\(schema.id) \(schema.version))")),
            ("required", .array(["requestId", "createdAt", "schema", "schemaVersion", "values"].map { .string($0) })),
            (
                "properties",
                object(
                    (
                        "requestId",
                        object(
                            ("type", .string("string")), ("minLength", .number(DecimalNumber(lexeme: "1"))),
                            ("maxLength", .number(DecimalNumber(lexeme: "\(Gateway.maxRequestIDBytes)"))),
                            (
                                "description",
                                .string(
                                    "The caller's id for the request, 1 to \(Gateway.maxRequestIDBytes) bytes of UTF-8; also the key of its retries."
                                )
                            )
                        )
                    ),
                    (
                        "createdAt",
                        object(
                            ("type", .string("string")), ("format", .string("date-time")),
                            (
                                "description",
                                .string(
                                    "When the envelope was built (RFC 3339, UTC); bound into every seal, and refused outside the replay window."
                                )
                            )
                        )
                    ),
                    ("schema", object(("const", .string(schema.id)))),
                    ("schemaVersion", object(("const", .string(schema.version)))),
                    ("context", .object(context)),
                    ("tenderType", tenderType),
                    (
                        "values",
                        object(
                            ("$ref", .string("#/components/schemas/\(Components.name(schema.id))")),
                            (
                                "description",
                                .string(
                                    "The request's values in clear: the schema's fields but those marked pciEncryptionRequired, which travel sealed in encryptedFields."
                                )
                            )
                        )
                    ),
                    ("encryptedFields", object(("type", .string("array")), ("items", Self.reference("EncryptedField"))))
                )
            )
        )
    }

    // MARK: - The other routes

    private static let getCatalogue = object(
        ("operationId", .string("getCatalogue")),
        ("summary", .string("The signed schema catalogue")),
        (
            "description",
            .string(
                "Public. The catalogue's body, its SHA-256 as a strong ETag, and its Ed25519 signature in `X-DCE-Signature`; with `If-None-Match` and the ETag held, 304."
            )
        ),
        (
            "parameters",
            .array([
                object(
                    ("name", .string("If-None-Match")), ("in", .string("header")), ("required", .boolean(false)),
                    ("schema", text))
            ])
        ),
        (
            "responses",
            object(
                (
                    "200",
                    object(
                        ("description", .string("The catalogue.")),
                        (
                            "headers",
                            object(
                                ("ETag", header("The body's SHA-256, quoted.", text, required: true)),
                                (
                                    "X-DCE-Signature",
                                    header("The Ed25519 signature of the body, base64.", text, required: true)
                                )
                            )
                        ),
                        ("content", Self.json(Self.reference("Catalogue"))),
                        (
                            "links",
                            object(
                                (
                                    "revalidate",
                                    object(
                                        ("operationId", .string("getCatalogue")),
                                        (
                                            "parameters",
                                            object(("header.If-None-Match", .string("$response.header.ETag")))
                                        ),
                                        (
                                            "description",
                                            .string(
                                                "Asking again with the ETag held: 304 while the catalogue is the same.")
                                        )
                                    )
                                )
                            )
                        )
                    )
                ),
                (
                    "304",
                    object(
                        ("description", .string("The catalogue held is the one served.")),
                        ("headers", object(("ETag", header("The body's SHA-256, quoted.", text, required: true))))
                    )
                )
            )
        )
    )

    private static let getDocument = object(
        ("operationId", .string("getOpenAPIDocument")),
        ("summary", .string("This document")),
        ("description", .string("Public, and made from the catalogue being served.")),
        (
            "responses",
            object(
                (
                    "200",
                    object(
                        ("description", .string("The OpenAPI 3.1 document.")),
                        (
                            "content",
                            Self.json(object(("type", .string("object"))))
                        )
                    )
                )
            )
        )
    )

    private static let getHealth = object(
        ("operationId", .string("getHealth")),
        ("summary", .string("Liveness: the process is serving")),
        (
            "responses",
            object(
                (
                    "200",
                    object(
                        ("description", .string("The process serves requests.")),
                        ("content", Self.json(Self.reference("Health")))
                    )
                )
            )
        )
    )

    private static let getReadiness = object(
        ("operationId", .string("getReadiness")),
        ("summary", .string("Readiness: whether to send this instance requests")),
        (
            "description",
            .string(
                "Ready when the catalogue served has not expired and, with a database, the database answers. From a SIGTERM on, 503 (`draining`) while the gateway finishes its requests and stops."
            )
        ),
        (
            "responses",
            object(
                (
                    "200",
                    object(
                        ("description", .string("Ready.")),
                        ("content", Self.json(Self.reference("Readiness")))
                    )
                ),
                (
                    "503",
                    object(
                        ("description", .string("Not ready: a check fails, or the gateway is draining.")),
                        ("headers", object(("Retry-After", retryAfter))),
                        ("content", Self.json(Self.reference("Readiness")))
                    )
                )
            )
        )
    )

    private static let getMetrics = object(
        ("operationId", .string("getMetrics")),
        ("summary", .string("Prometheus metrics")),
        (
            "responses",
            object(
                (
                    "200",
                    object(
                        ("description", .string("The Prometheus text exposition (0.0.4).")),
                        ("content", object(("text/plain", object(("schema", text)))))
                    )
                )
            )
        )
    )

    // MARK: - Bodies

    private static let encryptedField = object(
        ("type", .string("object")),
        ("description", .string("One value marked pciEncryptionRequired, sealed to the gateway's X25519 key (HPKE).")),
        (
            "required",
            .array(["pointer", "algorithm", "keyId", "encapsulatedKey", "ciphertext"].map { .string($0) })
        ),
        (
            "properties",
            object(
                (
                    "pointer",
                    object(
                        ("type", .string("string")), ("description", .string("Where the value belongs (JSON Pointer)."))
                    )
                ),
                ("algorithm", object(("type", .string("string")), ("examples", .array([.string(hpkeAlgorithm)])))),
                ("keyId", text), ("encapsulatedKey", base64), ("ciphertext", base64)
            )
        )
    )

    private static let hpkeAlgorithm = "HPKE-Base-X25519-SHA256-ChaChaPoly"

    private static let violation = object(
        ("type", .string("object")),
        ("required", .array(["path", "key", "rule", "message"].map { .string($0) })),
        (
            "properties",
            object(
                (
                    "path",
                    object(
                        ("type", .string("string")),
                        ("description", .string("The JSON Pointer of the value, `\"\"` for the request.")))
                ),
                ("key", text),
                (
                    "rule",
                    object(
                        ("type", .string("string")),
                        ("description", .string("The rule broken, such as `required` or `cardVelocity`.")))
                ),
                (
                    "message",
                    object(
                        ("type", .string("string")),
                        ("description", .string("In English; never a value of a sensitive field.")))
                ),
                ("line", object(("type", .string("integer")), ("minimum", .number(DecimalNumber(lexeme: "1"))))),
                ("column", object(("type", .string("integer")), ("minimum", .number(DecimalNumber(lexeme: "1")))))
            )
        )
    )

    private static let response = object(
        ("type", .string("object")),
        (
            "description",
            .string("`PDResponse`: accepted with the backend's payload, or rejected with the gateway's errors.")
        ),
        ("required", .array(["requestId", "status", "payload", "errors"].map { .string($0) })),
        (
            "properties",
            object(
                (
                    "requestId",
                    object(
                        ("type", .string("string")),
                        ("description", .string("The request's id; empty when the envelope was not read.")))
                ),
                ("status", object(("enum", .array([.string("accepted"), .string("rejected")])))),
                ("payload", object(("description", .string("The backend's answer; `null` when rejected.")))),
                ("errors", object(("type", .string("array")), ("items", reference("Violation")))),
                (
                    "omittedErrors",
                    object(("type", .string("integer")), ("minimum", .number(DecimalNumber(lexeme: "1"))))
                )
            )
        )
    )

    private static let catalogue = object(
        ("type", .string("object")),
        ("required", .array(["version", "expires", "schemas"].map { .string($0) })),
        (
            "properties",
            object(
                ("version", object(("type", .string("string")), ("pattern", .string("^[0-9]+(\\.[0-9]+)*$")))),
                ("expires", object(("type", .string("string")), ("format", .string("date-time")))),
                (
                    "schemas",
                    object(
                        ("type", .string("object")), ("additionalProperties", object(("type", .string("object")))),
                        ("description", .string("Each schema document by id, as `dce-validate` reads it."))
                    )
                )
            )
        )
    )

    private static let health = object(
        ("type", .string("object")),
        ("required", .array([.string("status")])),
        ("properties", object(("status", object(("const", .string("ok"))))))
    )

    private static let readiness = object(
        ("type", .string("object")),
        ("required", .array(["status", "catalogue", "checks"].map { .string($0) })),
        (
            "properties",
            object(
                ("status", object(("enum", .array(["ready", "notReady", "draining"].map { .string($0) })))),
                ("catalogue", object(("type", .string("string")), ("description", .string("The version served.")))),
                (
                    "checks",
                    object(
                        ("type", .string("object")),
                        (
                            "description",
                            .string("`catalogue`: `ok` or `expired`; `database`, with one: `ok` or `unreachable`.")
                        ),
                        (
                            "additionalProperties",
                            object(("enum", .array(["ok", "expired", "unreachable"].map { .string($0) })))
                        )
                    )
                )
            )
        )
    )

    // MARK: - Building blocks

    private static let text = object(("type", .string("string")))
    private static let base64 = object(("type", .string("string")), ("contentEncoding", .string("base64")))
    private static let retryAfter = header(
        "Seconds to wait before retrying.",
        object(("type", .string("integer")), ("minimum", .number(DecimalNumber(lexeme: "1")))), required: true)

    private static func header(_ description: String, _ schema: SchemaValue, required: Bool = true) -> SchemaValue {
        object(("description", .string(description)), ("required", .boolean(required)), ("schema", schema))
    }

    /// An answer of `POST /v1/requests`: a `PDResponse`.
    private static func answer(
        _ description: String, headers: [SchemaValue.Member] = [], links: [SchemaValue.Member] = []
    ) -> SchemaValue {
        var members = [
            member("description", .string(description)),
            member("content", Self.json(Self.reference("PDResponse"))),
        ]
        if !headers.isEmpty { members.insert(member("headers", .object(headers)), at: 1) }
        if !links.isEmpty { members.append(member("links", .object(links))) }
        return .object(members)
    }

    /// A body of `application/json` following `schema`.
    private static func json(_ schema: SchemaValue) -> SchemaValue {
        object(("application/json", object(("schema", schema))))
    }

    private static func reference(_ name: String) -> SchemaValue {
        object(("$ref", .string("#/components/schemas/" + name)))
    }
}

/// The exports' documents made components: each request schema's values under its id, the definitions every export
/// shares word for word written once, the others under their schema's id, every `$ref` pointed at its new place.
private struct Components {
    private(set) var schemas: [SchemaValue.Member] = []
    /// A shared definition's component name by its JSON text.
    private var shared: [String: String] = [:]

    /// A component name for a schema id or definition: letters, digits, `.`, `-` and `_` (what OpenAPI allows).
    static func name(_ text: String) -> String {
        String(
            text.map { character in
                character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
                    ? character : "_"
            })
    }

    mutating func add(values export: SchemaValue, of id: String) {
        guard case .object(var members) = export else {
            schemas.append(.init(key: Self.name(id), value: export))
            return
        }
        var renamed: [String: String] = [:]
        if let index = members.firstIndex(where: { $0.key == "$defs" }),
            case .object(let definitions) = members[index].value
        {
            members.remove(at: index)
            // A definition that refers to no other is shared by its text: the address rules, the same in every export.
            for definition in definitions where !Self.refers(definition.value) {
                let text = definition.value.json
                if let existing = shared[text] {
                    renamed[definition.key] = existing
                } else {
                    let name = Self.name("shared." + definition.key)
                    let unique = schemas.contains { $0.key == name } ? Self.name("\(id).\(definition.key)") : name
                    shared[text] = unique
                    renamed[definition.key] = unique
                    schemas.append(.init(key: unique, value: definition.value))
                }
            }
            for definition in definitions where Self.refers(definition.value) {
                renamed[definition.key] = Self.name("\(id).\(definition.key)")
            }
            for definition in definitions where Self.refers(definition.value) {
                schemas.append(.init(key: renamed[definition.key]!, value: Self.repoint(definition.value, renamed)))
            }
        }
        // `$schema` is the document's dialect, already said once for the whole document.
        members.removeAll { $0.key == "$schema" }
        schemas.append(.init(key: Self.name(id), value: Self.repoint(.object(members), renamed)))
    }

    /// Whether a schema holds a `$ref`.
    private static func refers(_ value: SchemaValue) -> Bool {
        switch value {
        case .object(let members): members.contains { $0.key == "$ref" || refers($0.value) }
        case .array(let items): items.contains(where: refers)
        default: false
        }
    }

    /// Every `#/$defs/NAME` reference pointed at NAME's component.
    private static func repoint(_ value: SchemaValue, _ renamed: [String: String]) -> SchemaValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    if member.key == "$ref", case .string(let target) = member.value, target.hasPrefix("#/$defs/"),
                        let name = renamed[String(target.dropFirst("#/$defs/".count))]
                    {
                        return .init(key: "$ref", value: .string("#/components/schemas/" + name))
                    }
                    return .init(key: member.key, value: repoint(member.value, renamed))
                })
        case .array(let items): return .array(items.map { repoint($0, renamed) })
        default: return value
        }
    }
}

private func member(_ key: String, _ value: SchemaValue) -> SchemaValue.Member { .init(key: key, value: value) }

private func object(_ members: (String, SchemaValue)...) -> SchemaValue {
    .object(members.map { SchemaValue.Member(key: $0.0, value: $0.1) })
}
