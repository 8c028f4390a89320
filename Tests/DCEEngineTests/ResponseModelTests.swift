import DCEEngine
import DCEModels
import Foundation
import Testing

/// Response models that survive a newer backend: every valid response example decodes into its model, whole and with
/// its optional members left out (the seeds' 'partial API responses'); an enum value the models do not know decodes
/// to the seed's `unknown` member, keeping its raw value, while the response schema still reports it.
struct ResponseModelTests {
    // MARK: - The models of the response schemas

    /// What a test does with a model, apart from its type.
    struct Model: Sendable {
        /// Decodes a payload and throws when it does not decode.
        let decode: @Sendable (Data) throws -> Void
        /// Decodes a payload, encodes the value, decodes that again: whether both values are equal.
        let roundTrips: @Sendable (Data) throws -> Bool
    }

    static func model<M: Codable & Equatable & Sendable>(_ type: M.Type) -> Model {
        Model(
            decode: { _ = try JSONDecoder().decode(M.self, from: $0) },
            roundTrips: { data in
                let value = try JSONDecoder().decode(M.self, from: data)
                return try JSONDecoder().decode(M.self, from: JSONEncoder().encode(value)) == value
            })
    }

    /// The model of each response schema.
    static let models: [String: Model] = [
        "card-response": model(Card.self), "card-list-response": model(CardList.self),
        "card-tokenization-response": model(CardTokenization.self),
        "card-details-response": model(CardSensitiveDetails.self),
        "gift-cards-response": model(GiftCardsResponse.self), "card-arts-response": model(CardArtsResponse.self),
        "transaction-history-response": model(CardEntity.self), "virtual-card-response": model(VirtualCard.self),
        "provisional-card-response": model(ProvisionalVirtualCard.self),
        "card-programs-response": model(CardProgramsResponse.self),
    ]

    /// A valid example of a response schema, from `Examples/manifest.json`.
    struct Example: Sendable, CustomTestStringConvertible {
        let file: String
        let schema: String
        let context: [String: String]
        var testDescription: String { file }
    }

    static let responseExamples: [Example] = {
        guard
            let manifest = try? json(Data(contentsOf: Fixtures.examples.appendingPathComponent("manifest.json")))
                as? [String: Any],
            let entries = manifest["examples"] as? [[String: Any]]
        else { return [] }
        return entries.compactMap { entry in
            guard entry["expect"] as? String == "valid", let file = entry["file"] as? String,
                let schema = entry["schema"] as? String,
                entry["original"] == nil, (try? Schemas.document(schema)["kind"] as? String) == "response"
            else { return nil }
            return Example(file: file, schema: schema, context: entry["context"] as? [String: String] ?? [:])
        }
    }()

    @Test func everyResponseSchemaHasAModelAndValidExamples() throws {
        let responses = try FileManager.default.contentsOfDirectory(atPath: Fixtures.schemas.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
            .filter { (try? Schemas.document($0)["kind"] as? String) == "response" }
        #expect(Set(responses) == Set(Self.models.keys))
        #expect(Set(Self.responseExamples.map(\.schema)) == Set(Self.models.keys))
    }

    // MARK: - (a) Every valid example decodes, whole and partial

    /// The example decodes; re-encoding it and decoding that gives an equal value; and a copy with every member that
    /// is optional in the schema removed (recursively) decodes too.
    @Test(arguments: responseExamples)
    func validExampleDecodesWholeAndWithoutItsOptionalMembers(example: Example) throws {
        let model = try #require(Self.models[example.schema])
        let data = try Data(contentsOf: Fixtures.examples.appendingPathComponent(example.file))
        try model.decode(data)
        #expect(try model.roundTrips(data), "\(example.file): the re-encoded value differs")
        let minimal = try Schemas.stripped(json(data), schema: example.schema)
        #expect(throws: Never.self, "\(example.file) without its optional members") {
            try model.decode(serialized(minimal))
        }
    }

    /// Each optional member alone left out, and set to `null` where the schema allows it: this reaches the optional
    /// members of optional objects (a delivery address's postal code), which the fully stripped copy removes whole.
    @Test(arguments: responseExamples)
    func validExampleDecodesWithEachOptionalMemberLeftOutOrNull(example: Example) throws {
        let model = try #require(Self.models[example.schema])
        let payload = try json(Data(contentsOf: Fixtures.examples.appendingPathComponent(example.file)))
        let members = try Schemas.optionalMembers(of: payload, schema: example.schema)
        for member in members {
            #expect(throws: Never.self, "\(example.file) without \(member.pointer)") {
                try model.decode(serialized(Pointer.removing(member.pointer, from: payload)))
            }
            if member.nullable {
                #expect(throws: Never.self, "\(example.file) with \(member.pointer) null") {
                    try model.decode(serialized(Pointer.setting(NSNull(), at: member.pointer, in: payload)))
                }
            }
        }
    }

    /// The stripping itself: what is left of a card and of a card's history is what the schemas require.
    @Test func strippingLeavesOnlyTheRequiredMembers() throws {
        let card = try Schemas.stripped(example("card-response/valid-physical-card.json"), schema: "card-response")
        #expect((card as? [String: Any]).map { Set($0.keys) } == ["cardId", "status"])
        let history = try Schemas.stripped(
            example("transaction-history-response/valid-with-history.json"), schema: "transaction-history-response")
        let entity = try #require(history as? [String: Any])
        #expect(Set(entity.keys) == ["receivedCard"])
        #expect(
            (entity["receivedCard"] as? [String: Any]).map { Set($0.keys) } == [
                "giftCardId", "expiryDate", "cardArtId",
            ])
        let list = try Schemas.stripped(
            example("card-list-response/valid-two-pages.json"), schema: "card-list-response")
        let cards = try #require((list as? [String: Any])?["cards"] as? [[String: Any]])
        #expect(cards.count == 2 && cards.allSatisfy { Set($0.keys) == ["cardId", "status"] })
        let members = try Schemas.optionalMembers(
            of: example("card-response/valid-physical-card.json"), schema: "card-response")
        #expect(
            Set(members.map(\.pointer)).isSuperset(of: [
                "/expiry", "/deliveryAddress/postalCode", "/tokenizations/0/walletId",
            ]))
        #expect(
            !members.contains {
                $0.pointer == "/cardId" || $0.pointer == "/deliveryAddress/city"
                    || $0.pointer == "/tokenizations/0/dpanRef"
            })
        let decoded = try JSONDecoder().decode(CardList.self, from: serialized(list))
        #expect(
            decoded.meta == nil && decoded.cards.map(\.status) == [.active, .active]
                && decoded.cards[0].deliveryAddress == nil)
    }

    /// A delivery address without a postal code (a country without postal codes, which `delivery-address` accepts)
    /// still gives a card.
    @Test func aCardsDeliveryAddressMayHaveNoPostalCode() throws {
        let payload = try Pointer.removing(
            "/deliveryAddress/postalCode", from: example("card-response/valid-physical-card.json"))
        let card = try JSONDecoder().decode(Card.self, from: serialized(payload))
        #expect(card.deliveryAddress?.postalCode == nil && card.deliveryAddress?.city == "Sofia")
    }

    // MARK: - (b) An enum value the models do not know

    /// A value newer than the models, put into a valid example.
    struct UnknownValue: Sendable, CustomTestStringConvertible {
        let schema: String
        let file: String
        let pointer: String
        let raw: String
        /// Decodes the payload, and gives the enum value at the pointer with what the model encodes back.
        let decode: @Sendable (Data) throws -> (value: any OpenEnum, reencoded: Data)
        var testDescription: String { "\(schema) \(pointer) = \(raw)" }

        init<M: Codable & Sendable, E: OpenEnum>(
            _ schema: String, _ file: String, _ pointer: String, _ raw: String, _ type: M.Type,
            _ value: @escaping @Sendable (M) -> E?
        ) {
            self.schema = schema
            self.file = file
            self.pointer = pointer
            self.raw = raw
            decode = { data in
                let model = try JSONDecoder().decode(M.self, from: data)
                let enumValue = try #require(value(model))
                #expect(enumValue == E.unknown(raw) && !enumValue.isKnown && E(rawValue: raw) == enumValue)
                return (enumValue, try JSONEncoder().encode(model))
            }
        }
    }

    static let unknownValues: [UnknownValue] = [
        UnknownValue("card-response", "valid-physical-card.json", "/status", "FROZEN_BY_NEWER_BACKEND", Card.self) {
            $0.status
        },
        UnknownValue("card-response", "valid-physical-card.json", "/cardType", "METAL", Card.self) { $0.cardType },
        UnknownValue("card-response", "valid-physical-card.json", "/scheme", "AMEX", Card.self) { $0.scheme },
        UnknownValue(
            "card-response", "valid-physical-card.json", "/tokenizations/0/walletType", "PAYPAL_WALLET", Card.self
        ) {
            $0.tokenizations?.first?.walletType
        },
        UnknownValue("card-response", "valid-physical-card.json", "/tokenizations/0/status", "SUSPENDED", Card.self) {
            $0.tokenizations?.first?.status
        },
        UnknownValue("card-list-response", "valid-two-pages.json", "/cards/1/status", "LOCKED", CardList.self) {
            $0.cards[1].status
        },
        UnknownValue(
            "card-tokenization-response", "valid-google-pay.json", "/cardNetwork", "CARD_NETWORK_AMEX",
            CardTokenization.self
        ) {
            $0.cardNetwork
        },
        UnknownValue(
            "card-tokenization-response", "valid-google-pay.json", "/tokenProvider", "TOKEN_PROVIDER_AMEX",
            CardTokenization.self
        ) {
            $0.tokenProvider
        },
        UnknownValue(
            "gift-cards-response", "valid-seed-example.json", "/0/value/status", "PENDING_KYC", GiftCardsResponse.self
        ) {
            $0.entries[0].value.status
        },
        UnknownValue(
            "transaction-history-response", "valid-with-history.json", "/transactionHistory/0/transactionType",
            "CRYPTO_CASHBACK", CardEntity.self
        ) {
            $0.transactionHistory?.first?.transactionType
        },
        UnknownValue(
            "transaction-history-response", "valid-with-history.json", "/events/1/eventType", "REFUNDED",
            CardEntity.self
        ) {
            $0.events?.last?.eventType
        },
        UnknownValue(
            "transaction-history-response", "valid-with-history.json", "/assetType", "SUBSCRIPTION", CardEntity.self
        ) { $0.assetType },
        UnknownValue(
            "transaction-history-response", "valid-with-history.json", "/receivedCard/status", "ACTIVATED",
            CardEntity.self
        ) {
            $0.receivedCard.status
        },
        UnknownValue("virtual-card-response", "valid-issued.json", "/state", "LOCKED", VirtualCard.self) { $0.state },
        UnknownValue(
            "provisional-card-response", "valid-provisioning.json", "/state", "QUEUED", ProvisionalVirtualCard.self
        ) { $0.state },
    ]

    /// The app decodes the value as `.unknown(raw)` and encodes the same raw string back; the response schema reports
    /// it as an `enum` violation at its place, and nothing else, so CI sees it.
    @Test(arguments: unknownValues)
    func anUnknownValueDecodesAsUnknownAndTheSchemaStillReportsIt(unknown: UnknownValue) throws {
        let original = try example("\(unknown.schema)/\(unknown.file)")
        let payload = try serialized(Pointer.setting(unknown.raw, at: unknown.pointer, in: original))

        let (value, reencoded) = try unknown.decode(payload)
        #expect(value.rawValue == unknown.raw && !value.isKnown)
        #expect(try Pointer.value(at: unknown.pointer, in: json(reencoded)) as? String == unknown.raw)
        #expect(String(decoding: reencoded, as: UTF8.self).contains("\"\(unknown.raw)\""))

        let context = Self.responseExamples.first { $0.file == "\(unknown.schema)/\(unknown.file)" }?.context ?? [:]
        let report = try Validator(source: .bundled, schemaIDs: [unknown.schema]).prepare(
            unknown.schema, context: context
        )
        .validate(json: Array(payload))
        #expect(report.errors.contains { $0.rule == .enum && $0.path == unknown.pointer }, "\(report.errors)")
        #expect(report.errors.count == 1, "\(report.errors.map { "\($0.rule)@\($0.path)" })")
    }

    /// The issue's two examples, matched as an app matches them.
    @Test func theIssuesExamplesMatchTheUnknownCase() throws {
        let card = try JSONDecoder().decode(
            Card.self, from: Data(#"{"cardId": "c1", "status": "FROZEN_BY_NEWER_BACKEND"}"#.utf8))
        guard case .unknown("FROZEN_BY_NEWER_BACKEND") = card.status else {
            Issue.record("status \(card.status)")
            return
        }
        let transaction = try JSONDecoder().decode(
            Transaction.self,
            from: Data(
                #"{"transactionType": "CRYPTO_CASHBACK", "transactionDate": "2024-04-01", "transactionAmount": 1, "transactionDescription": "x"}"#
                    .utf8))
        #expect(transaction.transactionType == .unknown("CRYPTO_CASHBACK"))
        #expect(
            String(decoding: try JSONEncoder().encode(transaction), as: UTF8.self).contains(
                #""transactionType":"CRYPTO_CASHBACK""#))
        // A value of the wrong type is still an error: only strings are open.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Card.self, from: Data(#"{"cardId": "c1", "status": 3}"#.utf8))
        }
    }

    // MARK: - The mechanism

    /// An open enum, with where its values are listed in the schemas.
    struct OpenEnumType: Sendable, CustomTestStringConvertible {
        let name: String
        /// The field in a schema: its id and the keys leading to it.
        let fields: [(schema: String, keys: [String])]
        let knownRawValues: [String]
        let decodesUNKNOWN: Bool
        let roundTrips: @Sendable () throws -> Bool
        var testDescription: String { name }

        init<E: OpenEnum>(_ type: E.Type, _ fields: [(schema: String, keys: [String])]) {
            name = "\(E.self)"
            self.fields = fields
            knownRawValues = E.allKnownCases.map(\.rawValue)
            decodesUNKNOWN = E(rawValue: "UNKNOWN") == .unknown("UNKNOWN") && !E(rawValue: "UNKNOWN").isKnown
            roundTrips = {
                try E.allKnownCases.allSatisfy { value in
                    let data = try JSONEncoder().encode([value])
                    let decoded = try JSONDecoder().decode([E].self, from: data)
                    return value.isKnown && E(rawValue: value.rawValue) == value
                        && String(decoding: data, as: UTF8.self) == "[\"\(value.rawValue)\"]" && decoded == [value]
                }
            }
        }
    }

    static let openEnums: [OpenEnumType] = [
        OpenEnumType(
            ActivationStatus.self,
            [
                ("gift-cards-response", ["value", "status"]),
                ("transaction-history-response", ["receivedCard", "status"]),
            ]),
        OpenEnumType(
            TransactionType.self, [("transaction-history-response", ["transactionHistory", "transactionType"])]),
        OpenEnumType(CardEventType.self, [("transaction-history-response", ["events", "eventType"])]),
        OpenEnumType(AssetType.self, [("transaction-history-response", ["assetType"])]),
        OpenEnumType(
            CardStatus.self,
            [("card-response", ["status"]), ("card-list-query", ["status"]), ("card-update", ["status"])]),
        OpenEnumType(CardType.self, [("card-response", ["cardType"]), ("card-list-query", ["cardType"])]),
        OpenEnumType(CardScheme.self, [("card-response", ["scheme"])]),
        OpenEnumType(
            MobileWalletType.self,
            [
                ("card-response", ["tokenizations", "walletType"]), ("card-tokenize", ["walletType"]),
                ("tokenization-status", ["walletType"]),
            ]),
        OpenEnumType(
            MobileWalletStatus.self,
            [("card-response", ["tokenizations", "status"]), ("tokenization-status", ["status"])]),
        OpenEnumType(CardIncludesParam.self, [("card-list-query", ["include"])]),
        OpenEnumType(CardNetworkType.self, [("card-tokenization-response", ["cardNetwork"])]),
        OpenEnumType(CardTokenProvider.self, [("card-tokenization-response", ["tokenProvider"])]),
        OpenEnumType(VirtualCardState.self, [("virtual-card-response", ["state"])]),
        OpenEnumType(ProvisioningState.self, [("provisional-card-response", ["state"])]),
        OpenEnumType(PaymentAccount.AccountType.self, [("payment-account", ["accountType"])]),
    ]

    /// Each enum knows exactly the schema's values but `UNKNOWN`, which is its `.unknown("UNKNOWN")`; each known case
    /// encodes as its raw value and decodes back.
    @Test(arguments: openEnums)
    func eachOpenEnumKnowsTheSchemasValues(type: OpenEnumType) throws {
        for field in type.fields {
            let values = try Schemas.enumValues(schema: field.schema, keys: field.keys)
            #expect(values.filter { $0 != "UNKNOWN" } == type.knownRawValues, "\(field.schema) \(field.keys)")
        }
        #expect(type.decodesUNKNOWN)
        #expect(try type.roundTrips())
    }

    @Test func rawValuesAreExactAndEqualityFollowsThem() throws {
        #expect(ActivationStatus(rawValue: "sent") == .sent && ActivationStatus(rawValue: "ACTIVE") == .activated)
        #expect(ActivationStatus(rawValue: "SENT") == .unknown("SENT") && !ActivationStatus(rawValue: "SENT").isKnown)
        #expect(CardStatus.unknown("ACTIVE") == .active && CardStatus.unknown("ACTIVE").isKnown)
        #expect(Set([CardStatus.active, .unknown("ACTIVE"), .unknown("UNKNOWN"), .unknown("FROZEN")]).count == 3)
        #expect(CardStatus.unknown("UNKNOWN").rawValue == "UNKNOWN" && CardScheme.mastercard.rawValue == "MC")
        #expect(CardTokenizationRequest.WalletType.self == MobileWalletType.self)
        let parameters = try JSONDecoder().decode(
            CardParameters.self, from: Data(#"{"include": ["TOKENIZATIONS", "LIMITS"]}"#.utf8))
        #expect(parameters.include == [.tokenizations, .unknown("LIMITS")])
    }

    // MARK: - Helpers

    func example(_ file: String) throws -> Any {
        try json(Data(contentsOf: Fixtures.examples.appendingPathComponent(file)))
    }
}

private func json(_ data: Data) throws -> Any {
    try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
}

private func serialized(_ value: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
}

/// JSON Pointers into `JSONSerialization` values.
private enum Pointer {
    static func tokens(_ pointer: String) -> [String] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
    }

    static func value(at pointer: String, in root: Any) -> Any? {
        tokens(pointer).reduce(Optional(root)) { node, token in
            if let object = node as? [String: Any] { return object[token] }
            if let array = node as? [Any], let index = Int(token), array.indices.contains(index) { return array[index] }
            return nil
        }
    }

    static func setting(_ value: Any, at pointer: String, in root: Any) throws -> Any {
        try update(root, tokens(pointer)[...]) { _ in value }
    }

    static func removing(_ pointer: String, from root: Any) throws -> Any {
        try update(root, tokens(pointer)[...]) { _ in nil }
    }

    private static func update(_ node: Any, _ path: ArraySlice<String>, _ change: (Any?) -> Any?) throws -> Any {
        guard let token = path.first else { return try #require(change(node)) }
        if var object = node as? [String: Any] {
            if path.count == 1 {
                object[token] = change(object[token])
            } else {
                object[token] = try update(try #require(object[token]), path.dropFirst(), change)
            }
            return object
        }
        var array = try #require(node as? [Any])
        let index = try #require(Int(token))
        if path.count == 1, change(array[index]) == nil {
            array.remove(at: index)
        } else {
            array[index] =
                path.count == 1
                ? try #require(change(array[index])) : try update(array[index], path.dropFirst(), change)
        }
        return array
    }
}

/// The schema documents read as plain JSON, to find which members are optional (not `required`) and what an enum
/// lists, following `ref`s (`delivery-address`, `#/definitions/X`, `gift-cards-response#/definitions/X`).
private enum Schemas {
    static func document(_ id: String) throws -> [String: Any] {
        try #require(json(Data(contentsOf: Fixtures.schemas.appendingPathComponent("\(id).json"))) as? [String: Any])
    }

    /// The node a `ref` names, with the document it is in.
    static func resolve(_ node: [String: Any], in documentID: String) throws -> (node: [String: Any], document: String)
    {
        guard let ref = node["ref"] as? String else { return (node, documentID) }
        let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let target = parts[0].isEmpty ? documentID : parts[0]
        var resolved: Any = try document(target)
        if parts.count == 2 { resolved = try #require(Pointer.value(at: parts[1], in: resolved)) }
        return try resolve(#require(resolved as? [String: Any]), in: target)
    }

    /// The member fields of an object node.
    static func fields(_ node: [String: Any]) -> [[String: Any]] { node["fields"] as? [[String: Any]] ?? [] }

    /// A copy of the payload without the members that are optional in the schema, recursively.
    static func stripped(_ payload: Any, schema: String) throws -> Any {
        try strip(payload, node: document(schema), in: schema)
    }

    private static func strip(_ value: Any, node: [String: Any], in documentID: String) throws -> Any {
        let (node, documentID) = try resolve(node, in: documentID)
        if let array = value as? [Any], let items = node["items"] as? [String: Any] {
            return try array.map { try strip($0, node: items, in: documentID) }
        }
        guard var object = value as? [String: Any] else { return value }
        for field in fields(node) {
            guard let key = field["key"] as? String, let member = object[key] else { continue }
            object[key] = field["required"] as? Bool == true ? try strip(member, node: field, in: documentID) : nil
        }
        return object
    }

    /// Every optional member the payload has, by JSON Pointer, with whether the schema accepts `null` for it.
    static func optionalMembers(of payload: Any, schema: String) throws -> [(pointer: String, nullable: Bool)] {
        var found: [(pointer: String, nullable: Bool)] = []
        try collect(payload, node: document(schema), in: schema, at: "", into: &found)
        return found
    }

    private static func collect(
        _ value: Any, node: [String: Any], in documentID: String, at pointer: String,
        into found: inout [(pointer: String, nullable: Bool)]
    ) throws {
        let (node, documentID) = try resolve(node, in: documentID)
        if let array = value as? [Any], let items = node["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                try collect(element, node: items, in: documentID, at: "\(pointer)/\(index)", into: &found)
            }
            return
        }
        guard let object = value as? [String: Any] else { return }
        for field in fields(node) {
            guard let key = field["key"] as? String, let member = object[key] else { continue }
            if field["required"] as? Bool != true {
                found.append(("\(pointer)/\(key)", field["nullable"] as? Bool == true))
            }
            try collect(member, node: field, in: documentID, at: "\(pointer)/\(key)", into: &found)
        }
    }

    /// The `enum` of the field reached through these keys (array items are crossed on the way).
    static func enumValues(schema: String, keys: [String]) throws -> [String] {
        var (node, documentID) = try resolve(document(schema), in: schema)
        for key in keys {
            while let items = node["items"] as? [String: Any] {
                (node, documentID) = try resolve(items, in: documentID)
            }
            let field = try #require(fields(node).first { $0["key"] as? String == key }, "\(schema): no field \(key)")
            (node, documentID) = try resolve(field, in: documentID)
        }
        if let values = node["enum"] as? [String] { return values }
        return try #require((node["items"] as? [String: Any])?["enum"] as? [String], "\(schema) \(keys): no enum")
    }
}
