import DCECompatibility
import DCEModels
import DCESwiftGeneration
import Foundation
import Testing

@testable import DCEEngine

/// DCEModels is generated from `Schemas/` (`dce-validate generate swift`): its types are what the schemas say, and a
/// typed request is validated as its JSON is.
struct GeneratedModelTests {
    /// Every schema's generated root type.
    static let roots: [any (ValidatableRequest & Decodable).Type] = [
        Address.self, CardArtsResponse.self, CardRequest.self, CardSensitiveDetails.self, CardParameters.self,
        CardList.self, CardProgramsResponse.self, Card.self, CardTokenization.self, CardTokenizationRequest.self,
        CardUpdateRequest.self, CustomerProfile.self, DeliveryAddress.self, GiftCardsResponse.self,
        PaymentAccount.self, ProvisionalVirtualCard.self, MobileWallet.self, CardEntity.self,
        ProvisionVirtualCardInput.self, VirtualCard.self, UpdateVirtualCardInput.self,
    ]

    static let models = Dictionary(uniqueKeysWithValues: roots.map { ($0.schemaID, $0) })

    @Test func everySchemaHasItsModel() throws {
        #expect(Set(Self.models.keys) == Set(Fixtures.validator.schemaIDs))
    }

    // MARK: Drift

    /// The members of every generated struct an example reaches, compared with what the schemas say now: a field
    /// added to a schema, or one whose type or optionality changed, fails here until the models are generated again.
    @Test func everyModelsMembersAreItsSchemasFields() throws {
        let expected = try SwiftModelGenerator(configuration: .init(imports: ["DCEEngine"])).members(from: .bundled)
        var checked: Set<String> = []
        for (schema, examples) in SchemaComparisonTests.examples {
            let type = try #require(Self.models[schema])
            for example in examples {
                guard let model = Self.decode(type, example.payload) else { continue }
                Self.compare(model, with: expected, checked: &checked, at: example.name)
            }
        }
        // Each struct is reached by some example, so each is compared.
        #expect(checked == Set(expected.keys), "not reached: \(Set(expected.keys).subtracting(checked).sorted())")
    }

    private static func decode<Model: ValidatableRequest & Decodable>(_ type: Model.Type, _ payload: [UInt8])
        -> (any ValidatableRequest)?
    {
        try? JSONDecoder().decode(Model.self, from: Data(payload))
    }

    /// Compares a value's stored members with the schema's, and those of every generated struct inside it.
    private static func compare(
        _ value: Any, with expected: [String: [(name: String, type: String)]], checked: inout Set<String>,
        at place: String
    ) {
        let mirror = Mirror(reflecting: value)
        let typeName = String(describing: type(of: value))
        if let members = expected[typeName] {
            checked.insert(typeName)
            let found = mirror.children.map { ($0.label ?? "", String(describing: type(of: $0.value))) }
            #expect(
                found.map { "\($0.0): \($0.1)" } == members.map { "\($0.name): \($0.type)" },
                "\(typeName) (\(place)): the model's members are not its schema's fields")
        }
        for child in mirror.children { compare(child.value, with: expected, checked: &checked, at: place) }
    }

    // MARK: Typed validation

    /// Every example decoded into its model is validated as a typed request (written by the model itself, no
    /// `Encoder`) and as the JSON `JSONEncoder` makes of the model: the reports are byte for byte the same, save the
    /// line and column the JSON's violations carry and a typed request has none of.
    @Test func aTypedRequestIsValidatedAsItsJSON() throws {
        var compared = 0
        var invalid = 0
        for (schema, examples) in SchemaComparisonTests.examples {
            let type = try #require(Self.models[schema])
            for example in examples {
                guard let (typed, json, verdict) = try Self.reports(type, example) else { continue }
                #expect(typed == json, "\(example.name)")
                #expect(verdict == (typed.range(of: #""valid":true"#) != nil), "\(example.name)")
                compared += 1
                if verdict == false { invalid += 1 }
            }
        }
        #expect(compared >= 100, "\(compared) examples decoded into their models")
        #expect(invalid >= 20, "\(invalid) of them invalid")
    }

    private static func reports<Model: ValidatableRequest & Decodable>(
        _ type: Model.Type, _ example: SchemaComparison.Example
    ) throws -> (typed: String, json: String, isValid: Bool)? {
        guard let model = try? JSONDecoder().decode(Model.self, from: Data(example.payload)) else { return nil }
        let validator = Fixtures.validator
        let typed = try validator.validate(model, context: example.context, tenderType: example.tenderType)
        let json = try validator.validate(
            json: [UInt8](JSONEncoder().encode(model)), schema: Model.schemaID, context: example.context,
            tenderType: example.tenderType)
        let isValid = try validator.isValid(model, context: example.context, tenderType: example.tenderType)
        return (try text(of: typed), try text(of: json, withoutPositions: true), isValid)
    }

    /// A report as JSON with sorted keys; with `withoutPositions`, the violations' `line` and `column` left out.
    private static func text(of report: ValidationReport, withoutPositions: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var object = try JSONSerialization.jsonObject(with: encoder.encode(report)) as! [String: Any]
        if withoutPositions {
            for list in ["errors", "warnings"] {
                object[list] = (object[list] as? [[String: Any]])?.map {
                    $0.filter { $0.key != "line" && $0.key != "column" }
                }
            }
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
    }

    // MARK: What the generated types say of themselves

    /// A sensitive field is a `SensitiveString`: neither `description`, `debugDescription` nor `dump` of a generated
    /// type shows it.
    @Test func aGeneratedTypeNeverPrintsASensitiveValue() throws {
        let pin = "4821"
        let card = "4111111111111111"
        let request = CardRequest(programName: "SKRILL-VIRTUAL-MC-EEA", currency: "EUR", cardPin: SensitiveString(pin))
        let account = PaymentAccount(
            cardNumber: SensitiveString(card), expiry: "12/30", securityCode: "737", cardholderName: "Jane Doe")
        let profile = CustomerProfile(
            name: "Jane", profileAddress: Address(line1: "1 Main St", city: "Austin", zipCode: "78701", country: "US"),
            paymentAccounts: [account])
        for value in [request as Any, account, profile] {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [String(describing: value), String(reflecting: value), dumped] {
                #expect(!text.contains(pin) && !text.contains(card) && !text.contains("737"), "\(text)")
            }
        }
        #expect(account.maskedCardNumber == Masking.mask(card))
    }

    /// A merge patch's nullable members have three states, written as left out, `null` and a value.
    @Test func aMergePatchWritesItsThreeStates() throws {
        let update = UpdateVirtualCardInput(id: "card-1", billingAddress: .remove, metadata: .set(["alias": "Bank"]))
        var writer = DocumentWriter()
        update.write(to: &writer)
        #expect(
            String(decoding: try writer.document().bytes, as: UTF8.self)
                == #"{"id":"card-1","billingAddress":null,"metadata":{"alias":"Bank"}}"#)
    }
}
