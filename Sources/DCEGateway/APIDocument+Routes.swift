import DCEEngine
import DCEExport

/// The parts of the document that do not depend on the catalogue: the operations besides `POST /v1/requests`, the
/// components every catalogue has, and the building blocks of both.
extension APIDocument {
    // MARK: - The other routes

    static let getCatalogue = object(
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

    static let getDocument = object(
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

    static let getHealth = object(
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

    static let getReadiness = object(
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

    static let getMetrics = object(
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

    static let encryptedField = object(
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

    static let hpkeAlgorithm = "HPKE-Base-X25519-SHA256-ChaChaPoly"

    static let violation = object(
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

    static let response = object(
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

    static let catalogue = object(
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

    static let health = object(
        ("type", .string("object")),
        ("required", .array([.string("status")])),
        ("properties", object(("status", object(("const", .string("ok"))))))
    )

    static let readiness = object(
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

    static let text = object(("type", .string("string")))
    static let base64 = object(("type", .string("string")), ("contentEncoding", .string("base64")))
    static let retryAfter = header(
        "Seconds to wait before retrying.",
        object(("type", .string("integer")), ("minimum", .number(DecimalNumber(lexeme: "1")))), required: true)

    static func header(_ description: String, _ schema: SchemaValue, required: Bool = true) -> SchemaValue {
        object(("description", .string(description)), ("required", .boolean(required)), ("schema", schema))
    }

    /// An answer of `POST /v1/requests`: a `PDResponse`.
    static func answer(
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
    static func json(_ schema: SchemaValue) -> SchemaValue {
        object(("application/json", object(("schema", schema))))
    }

    static func reference(_ name: String) -> SchemaValue {
        object(("$ref", .string("#/components/schemas/" + name)))
    }
}
