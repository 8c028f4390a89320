package import DCEEngine

/// One difference between two versions of a schema catalogue, and who it breaks (``SchemaComparison``).
package struct SchemaChange: Sendable, Hashable {
    /// Who a change can break: the apps that send a request, or the apps that read a response.
    package enum Direction: String, Sendable, Hashable {
        case request, response
    }

    /// How much a change matters: an `error` fails `dce-validate compat`.
    package enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        case info, warning, error

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }

        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A payload the old catalogue accepts and the new one refuses, checked against both before it is shown.
    package struct Witness: Sendable, Hashable {
        /// The payload as validated; sensitive values are shown masked (``shown``), never as they are here.
        package var payload: [UInt8]
        /// The payload with every sensitive value masked or withheld, as every report shows payloads.
        package var shown: [UInt8]
        package var context: [String: String]
        package var tenderType: String?
        /// The example the payload was taken or made from, when one was.
        package var source: String?
    }

    /// The schema id.
    package var schema: String
    /// The JSON Pointer of the field in a payload (`/deliveryAddress/postalCode`, list items as `-`); empty for the
    /// schema as a whole.
    package var path: String
    /// The change's stable id (`max-length-decreased`, `enum-value-added`, …).
    package var change: String
    /// Whether the apps in ``direction`` can break.
    package var breaking: Bool
    package var severity: Severity
    package var direction: Direction
    /// The context the change holds under (empty: with no context given, and so under every context).
    package var context: [String: String]
    /// The tender type it holds under (`nil`: without one).
    package var tenderType: String?
    /// The values other fields hold that it needs, by JSON Pointer (an override conditioned on `/cardType`
    /// holds when `/cardType` is `PHYSICAL`; `~` stands for a value none of the conditions accepts), as shown: a
    /// sensitive field's value is `[withheld]`.
    package var given: [String: String] = [:]
    /// The value behind ``given``, as compared (a witness holds it).
    var givenValue: SchemaComparison.Given?
    /// Where the changed attribute is written: in the new schema, or in the old one for what was removed.
    package var location: SchemaLocation?
    /// What changed, in words (`maxLength 30 → 20`).
    package var detail: String
    /// For a breaking request change: a payload that shows it.
    package var witness: Witness?
    /// For a breaking request change without a witness: why none was found, and what was tried.
    package var noWitness: String?
}

extension SchemaChange {
    /// The context and tender type the change holds under, in words (`region=US, tenderType=credit`); empty for
    /// none.
    package var scope: String {
        (context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + (tenderType.map { ["tenderType=\($0)"] } ?? [])
            + given.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: ", ")
    }

    /// The changes' ids, in the order `--help` and the README list them, with who each breaks: a tightening breaks
    /// the apps that send (requests), a loosening the apps that read (responses).
    package enum Kind: Sendable {
        /// Fewer payloads pass: breaks requests.
        case tightening
        /// More payloads pass: breaks responses.
        case loosening
        /// Breaks both (a type change, a removed schema).
        case both
        /// Breaks neither (a label, a description, an order).
        case neither
    }

    /// Every change id and its kind.
    package static let kinds: [String: Kind] = [
        "schema-removed": .both, "schema-added": .neither,
        "field-removed": .both, "field-added": .loosening, "required-field-added": .tightening,
        "type-changed": .both,
        "required-added": .tightening, "required-removed": .loosening,
        "forbidden-added": .tightening, "forbidden-removed": .loosening,
        "nullable-removed": .tightening, "nullable-added": .loosening,
        "max-length-added": .tightening, "max-length-decreased": .tightening,
        "max-length-increased": .loosening, "max-length-removed": .loosening,
        "min-length-added": .tightening, "min-length-increased": .tightening,
        "min-length-decreased": .loosening, "min-length-removed": .loosening,
        "maximum-added": .tightening, "maximum-decreased": .tightening,
        "maximum-increased": .loosening, "maximum-removed": .loosening,
        "minimum-added": .tightening, "minimum-increased": .tightening,
        "minimum-decreased": .loosening, "minimum-removed": .loosening,
        "max-items-added": .tightening, "max-items-decreased": .tightening,
        "max-items-increased": .loosening, "max-items-removed": .loosening,
        "min-items-added": .tightening, "min-items-increased": .tightening,
        "min-items-decreased": .loosening, "min-items-removed": .loosening,
        "enum-added": .tightening, "enum-value-removed": .tightening,
        "enum-value-added": .loosening, "enum-removed": .loosening,
        // A changed format or pattern takes values the old one refused, as well as refusing some it took.
        "format-added": .tightening, "format-changed": .both, "format-removed": .loosening,
        "pattern-added": .tightening, "pattern-changed": .both, "pattern-removed": .loosening,
        "unknown-fields-disallowed": .tightening, "unknown-fields-allowed": .loosening,
        "exists-in-added": .tightening, "exists-in-changed": .both, "exists-in-removed": .loosening,
        "context-value-removed": .tightening, "context-value-added": .neither,
        "tender-type-removed": .tightening, "tender-type-added": .neither,
        "label-changed": .neither, "description-changed": .neither, "message-changed": .neither,
        "order-changed": .neither, "group-changed": .neither,
    ]

    /// Whether a change of this kind breaks the apps of a schema of this kind, and how much it matters by default.
    static func assess(_ id: String, schema kind: SchemaKind) -> (breaking: Bool, severity: Severity) {
        let direction: Direction = kind == .response ? .response : .request
        switch (kinds[id] ?? .neither, direction) {
        case (.both, _), (.tightening, .request): return (true, .error)
        // An app built with DCEModels decodes a value of an open enum it does not know as `.unknown(raw)`.
        case (.loosening, .response): return (true, id == "enum-value-added" ? .warning : .error)
        // An app that checks answers against the new catalogue refuses what a gateway not yet changed still sends.
        case (.tightening, .response): return (true, .warning)
        case (.loosening, .request), (.neither, _): return (false, .info)
        }
    }
}
