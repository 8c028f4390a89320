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
}

/// A member of a JSON object in the document.
func member(_ key: String, _ value: SchemaValue) -> SchemaValue.Member { .init(key: key, value: value) }

/// A JSON object of the document, its members in the order given.
func object(_ members: (String, SchemaValue)...) -> SchemaValue {
    .object(members.map { SchemaValue.Member(key: $0.0, value: $0.1) })
}
