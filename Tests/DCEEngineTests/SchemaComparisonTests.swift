import DCEPattern
import Foundation
import Testing

@testable import DCECompatibility
@testable import DCEEngine

/// What a catalogue change breaks, over mutated copies of the shipped schemas: each change found with its id,
/// direction, severity, scope and location, and each breaking request change with a witness the old schemas accept
/// and the new ones refuse (checked here again, independently).
struct SchemaComparisonTests {
    /// The shipped schemas with one file edited (its JSON object changed by `edit`), as a validator.
    static func mutated(_ file: String, _ edit: (inout [String: Any]) -> Void) throws -> Validator {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Fixtures.repository.appendingPathComponent("Schemas"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(file)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        edit(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: url)
        return try Validator(source: .directory(folder))
    }

    /// Edits the field of a schema's `fields` with this key.
    static func field(_ key: String, in object: inout [String: Any], _ edit: (inout [String: Any]) -> Void) {
        guard var fields = object["fields"] as? [[String: Any]],
            let index = fields.firstIndex(where: { $0["key"] as? String == key })
        else { return }
        edit(&fields[index])
        object["fields"] = fields
    }

    /// The examples of `Examples/manifest.json`, by schema.
    static let examples: [String: [SchemaComparison.Example]] = {
        let root = Fixtures.repository.appendingPathComponent("Examples")
        let manifest =
            try! JSONSerialization.jsonObject(
                with: Data(contentsOf: root.appendingPathComponent("manifest.json"))) as! [String: Any]
        var found: [String: [SchemaComparison.Example]] = [:]
        for entry in manifest["examples"] as! [[String: Any]] where entry["original"] == nil {
            let file = entry["file"] as! String
            found[entry["schema"] as! String, default: []].append(
                SchemaComparison.Example(
                    name: file, payload: try! [UInt8](Data(contentsOf: root.appendingPathComponent(file))),
                    context: entry["context"] as? [String: String] ?? [:], tenderType: entry["tenderType"] as? String))
        }
        return found
    }()

    static func compare(_ new: Validator) throws -> [SchemaChange] {
        SchemaComparison(old: Fixtures.validator, new: new, examples: examples).changes()
    }

    /// The witness is what it says: valid under the old schema, refused by the new one at the changed field.
    static func checkWitness(of change: SchemaChange, new: Validator) throws {
        let witness = try #require(change.witness, "\(change.change) at \(change.path): \(change.noWitness ?? "")")
        let old = try Fixtures.validator.prepare(
            change.schema, context: witness.context, tenderType: witness.tenderType)
        #expect(old.validate(json: witness.payload).valid, "\(String(decoding: witness.payload, as: UTF8.self))")
        let refused = try new.prepare(change.schema, context: witness.context, tenderType: witness.tenderType)
            .validate(json: witness.payload)
        #expect(refused.errors.contains { SchemaComparison.path($0.path, isAt: change.path) }, "\(refused.errors)")
    }

    @Test func theSameSchemasChangeNothing() throws {
        #expect(try Self.compare(Fixtures.validator).isEmpty)
    }

    @Test func aNewMaximumOnlyForUSCustomersBreaksUSRequests() throws {
        let new = try Self.mutated("card-create.json") { object in
            Self.field("externalId", in: &object) { field in
                field["overrides"] = [["when": ["context": "region", "equals": "US"], "maxLength": 3]]
            }
        }
        let changes = try Self.compare(new)
        let change = try #require(changes.first { $0.change == "max-length-added" })
        #expect(change.schema == "card-create" && change.path == "/externalId")
        #expect(change.context == ["region": "US"] && change.breaking && change.severity == .error)
        #expect(change.direction == .request)
        #expect(change.location?.file.hasSuffix("card-create.json") == true && change.location?.position != nil)
        try Self.checkWitness(of: change, new: new)
        #expect(changes.filter { $0.severity == .error }.count == 1, "\(changes.map(\.change))")
    }

    @Test func aShorterCityInTheSharedAddressBreaksEveryRequestThatUsesIt() throws {
        let new = try Self.mutated("delivery-address.json") { object in
            Self.field("city", in: &object) { $0["maxLength"] = 5 }
        }
        let changes = try Self.compare(new)
        let cardCreate = try #require(
            changes.first { $0.schema == "card-create" && $0.path == "/deliveryAddress/city" })
        #expect(cardCreate.change == "max-length-decreased" && cardCreate.detail == "maxLength 30 → 5")
        #expect(cardCreate.location?.file.hasSuffix("delivery-address.json") == true)
        try Self.checkWitness(of: cardCreate, new: new)
    }

    @Test func aRemovedOptionAndANewRequiredFieldBreakRequests() throws {
        let new = try Self.mutated("card-list-query.json") { object in
            Self.field("cardType", in: &object) { $0["enum"] = ["PHYSICAL", "UNKNOWN"] }
        }
        let changes = try Self.compare(new)
        let removed = try #require(changes.first { $0.change == "enum-value-removed" && $0.path == "/cardType" })
        #expect(removed.detail == #"no longer takes "VIRTUAL""# && removed.severity == .error)
        try Self.checkWitness(of: removed, new: new)
        let required = try Self.mutated("payment-account.json") { object in
            Self.field("nickname", in: &object) { $0["required"] = true }
        }
        let added = try #require(
            try Self.compare(required).first { $0.change == "required-added" && $0.schema == "payment-account" })
        #expect(added.path == "/nickname")
        try Self.checkWitness(of: added, new: required)
    }

    /// An override conditioned on another field's value, made to hold for more values: the requests with those
    /// values break, and the change names the value it needs (here a branch of the regex the new condition added).
    @Test func anOverrideOnAnotherFieldsValueThatHoldsForMoreValuesBreaksThoseRequests() throws {
        let new = try Self.mutated("card-create.json") { object in
            Self.field("deliveryAddress", in: &object) { field in
                guard var overrides = field["overrides"] as? [[String: Any]] else { return }
                overrides[0]["when"] = ["field": "/programName", "matches": "PHYSICAL|VIRTUAL"]
                field["overrides"] = overrides
            }
        }
        let changes = try Self.compare(new)
        let required = try #require(changes.first { $0.change == "required-added" }, "\(changes.map(\.change))")
        #expect(required.path == "/deliveryAddress" && required.given == ["/programName": "VIRTUAL"])
        #expect(required.context.isEmpty && required.scope == "/programName=VIRTUAL")
        try Self.checkWitness(of: required, new: new)
        #expect(changes.filter(\.breaking).count == 1, "\(changes.map { "\($0.change) \($0.scope)" })")
        // The same condition narrowed is a loosening, with the value it frees.
        let narrower = try Self.mutated("card-create.json") { object in
            Self.field("deliveryAddress", in: &object) { field in
                guard var overrides = field["overrides"] as? [[String: Any]] else { return }
                overrides[0]["when"] = ["field": "/programName", "matches": "PHYSICAL-ONLY"]
                field["overrides"] = overrides
            }
        }
        let released = try #require(try Self.compare(narrower).first { $0.change == "required-removed" })
        #expect(!released.breaking && released.given == ["/programName": "PHYSICAL"])
    }

    /// An option removed from a field's base, but still taken under the tender type every payload that sends it
    /// binds: no payload shows a break, and the change says so at a lower severity.
    @Test func aBreakNoPayloadShowsIsPossibleOnly() throws {
        let new = try Self.mutated("payment-account.json") { object in
            Self.field("accountType", in: &object) { $0["enum"] = ["credit", "debit"] }
        }
        let removed = try #require(try Self.compare(new).first { $0.change == "enum-value-removed" })
        #expect(removed.witness == nil && removed.severity == .warning)
        #expect(removed.noWitness?.hasPrefix("possibly breaking: no payload shows it: ") == true, "\(removed)")
    }

    @Test func aNewOptionInAResponseIsAWarningForTheAppsThatRead() throws {
        let new = try Self.mutated("card-programs-response.json") { object in
            Self.field("programs", in: &object) { programs in
                guard var items = programs["items"] as? [String: Any] else { return }
                Self.field("cardType", in: &items) { field in
                    field["enum"] = ((field["enum"] as? [String]) ?? []) + ["HYBRID"]
                }
                programs["items"] = items
            }
        }
        let changes = try Self.compare(new)
        let added = try #require(changes.first { $0.change == "enum-value-added" }, "\(changes.map(\.change))")
        #expect(added.direction == .response && added.breaking && added.severity == .warning)
        #expect(added.path == "/programs/-/cardType" && added.witness == nil)
    }

    /// A new optional member of a response breaks no app that reads it where the old object took members it did
    /// not know (`card-response`, `"additionalFields": true`), and breaks them all where the old one refused them.
    @Test func aNewOptionalResponseMemberBreaksOnlyWhereTheOldObjectRefusedUnknownMembers() throws {
        let member: [String: Any] = ["key": "loyaltyTier", "dataType": "String", "name": ["en": "Loyalty tier"]]
        let open = try Self.compare(
            Self.mutated("card-response.json") { object in
                object["fields"] = (object["fields"] as? [[String: Any]] ?? []) + [member]
            })
        let added = try #require(
            open.first { $0.schema == "card-response" && $0.change == "field-added" }, "\(open.map(\.change))")
        #expect(added.path == "/loyaltyTier" && added.direction == .response && !added.breaking)
        #expect(added.severity == .info && open.allSatisfy { !$0.breaking })

        let closed = try Self.mutated("card-response.json") { $0["additionalFields"] = false }
        let closedThenAdded = try Self.mutated("card-response.json") { object in
            object["additionalFields"] = false
            object["fields"] = (object["fields"] as? [[String: Any]] ?? []) + [member]
        }
        let changes = SchemaComparison(old: closed, new: closedThenAdded).changes()
        let breaking = try #require(changes.first { $0.schema == "card-response" && $0.change == "field-added" })
        #expect(breaking.breaking && breaking.severity == .error && breaking.detail.contains("no member"))
    }

    /// An optional member removed from a response is a warning for the apps that read it (they already took its
    /// absence); a required one breaks them.
    @Test func aRemovedResponseMemberBreaksTheAppsThatReadOnlyWhenItWasRequired() throws {
        let changes = try Self.compare(
            Self.mutated("card-response.json") { object in
                object["fields"] = (object["fields"] as? [[String: Any]] ?? []).filter {
                    !["customerId", "cardId"].contains($0["key"] as? String)
                }
            })
        let optional = try #require(changes.first { $0.change == "field-removed" && $0.path == "/customerId" })
        #expect(!optional.breaking && optional.severity == .warning)
        let required = try #require(changes.first { $0.change == "field-removed" && $0.path == "/cardId" })
        #expect(required.breaking && required.severity == .error && required.detail.contains("required"))
    }

    @Test func aLabelIsInformationAndATypeChangeBreaksBoth() throws {
        let new = try Self.mutated("card-create.json") { object in
            Self.field("externalId", in: &object) { field in
                field["name"] = ["en": "Your reference"]
                field["dataType"] = "Integer"
            }
        }
        let changes = try Self.compare(new)
        let label = try #require(changes.first { $0.change == "label-changed" })
        #expect(!label.breaking && label.severity == .info)
        let type = try #require(changes.first { $0.change == "type-changed" })
        #expect(type.breaking && type.severity == .error)
        try Self.checkWitness(of: type, new: new)
    }

    @Test func aRemovedSchemaBreaksAndAFieldRemovedFromAStrictObjectToo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Fixtures.repository.appendingPathComponent("Schemas"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("virtual-card-update.json"))
        let changes = try Self.compare(Validator(source: .directory(folder)))
        let removed = try #require(changes.first { $0.change == "schema-removed" })
        #expect(removed.schema == "virtual-card-update" && removed.severity == .error)
        let strict = try Self.mutated("card-create.json") { object in
            Self.field("mobile", in: &object) { $0["key"] = "mobilePhone" }
        }
        let renamed = try Self.compare(strict)
        #expect(renamed.contains { $0.change == "field-removed" && $0.path == "/mobile" && $0.breaking })
        #expect(renamed.contains { $0.change == "field-added" && $0.path == "/mobilePhone" && !$0.breaking })
    }

    @Test func aBreakingChangeAsksForAMajorVersionAndAnAdditiveOneForAMinor() throws {
        func versions(_ version: String, _ edit: @escaping (inout [String: Any]) -> Void) throws -> [VersionCheck] {
            let new = try Self.mutated("card-create.json") { object in
                object["version"] = version
                edit(&object)
            }
            return SchemaComparison(old: Fixtures.validator, new: new).versions(for: try Self.compare(new))
        }
        let tighter: (inout [String: Any]) -> Void = { object in
            Self.field("externalId", in: &object) { $0["maxLength"] = 3 }
        }
        let unbumped = try versions("1.0.0", tighter)
        #expect(unbumped.count == 1 && unbumped[0].required == "major" && !unbumped[0].bumped)
        #expect(unbumped[0].severity == .error)
        #expect(try versions("2.0.0", tighter).first?.bumped == true)
        let looser: (inout [String: Any]) -> Void = { object in
            Self.field("programName", in: &object) { $0["minLength"] = nil }
        }
        let minor = try versions("1.0.1", looser)
        #expect(minor.first?.required == "minor" && minor.first?.severity == .warning)
        #expect(try versions("1.1.0", looser).first?.bumped == true)
    }

    /// For random mutations of the request schemas' fields, every payload of the examples that replay finds newly
    /// invalid is matched, at each pointer the new schemas refuse it, by a breaking change the comparison reports.
    @Test(arguments: 0..<40)
    func everyPayloadTurnedInvalidIsExplainedByABreakingChange(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &* 7919)
        let files = [
            "card-create.json", "payment-account.json", "card-tokenize.json", "card-list-query.json",
            "virtual-card-provision.json", "customer-profile.json", "delivery-address.json",
        ]
        let file = files.randomElement(using: &random)!
        var applied = ""
        // A string field of the file's own (no ref, no default), changed so that the schema still compiles.
        let new = try Self.mutated(file) { object in
            let fields = (object["fields"] as? [[String: Any]] ?? []).filter {
                $0["dataType"] as? String == "String" && $0["ref"] == nil && $0["defaultValue"] == nil
            }
            guard let target = fields.randomElement(using: &random), let key = target["key"] as? String else { return }
            let mutation = Int.random(in: 0..<8, using: &random)
            applied = "\(file) \(key) #\(mutation)"
            Self.field(key, in: &object) { field in
                switch mutation {
                case 0: field["maxLength"] = Int.random(in: 1...12, using: &random)
                case 1:
                    field["minLength"] = Int.random(in: 3...40, using: &random)
                    field["maxLength"] = nil
                case 2: field["required"] = true
                case 3: field["enum"] = ["ZZZ"]
                case 4: field["additionalDataValidations"] = [["regex": "^[A-Z]+$"]]
                case 5:
                    field["forbidden"] = true
                    field["required"] = nil
                case 6: field["nullable"] = false
                default:
                    guard field["overrides"] == nil && field["tenderTypes"] == nil else {
                        field["required"] = true
                        return
                    }
                    field["dataType"] = "Integer"
                    for attribute in ["minLength", "maxLength", "format", "additionalDataValidations", "enum"] {
                        field[attribute] = nil
                    }
                }
            }
        }
        let comparison = SchemaComparison(old: Fixtures.validator, new: new, examples: Self.examples)
        let changes = comparison.changes()
        let payloads = Self.examples.flatMap { schema, examples in
            examples.map {
                ReplayPayload(
                    file: $0.name, schema: schema, context: $0.context, tenderType: $0.tenderType, bytes: $0.payload)
            }
        }
        let replayed = comparison.replay(payloads)
        #expect(replayed.checked == payloads.count)
        for turned in replayed.newlyInvalid {
            for violation in turned.violations {
                let explained = changes.contains { change in
                    change.breaking && change.schema == turned.schema
                        && SchemaComparison.path(violation.path, isAt: change.path)
                }
                #expect(
                    explained,
                    "\(applied): \(turned.file) \(violation.path) [\(violation.rule)] has no change: \(changes.map { "\($0.schema) \($0.path) \($0.change)" })"
                )
            }
        }
    }
}

extension SchemaComparisonTests {
    /// For random changes to the response schemas, on objects that take members they do not know and on objects that
    /// refuse them: every response the new version accepts and the old one refuses (what an app built on the old
    /// version fails on) is explained, at each pointer the old version refuses it, by a change that breaks the apps
    /// that read; and a new optional member of an object that took unknown members breaks nobody.
    @Test(arguments: 0..<40)
    func everyResponseAnOldAppRefusesIsExplainedByABreakingChange(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &* 104_729)
        // The response schemas whose payload is an object with string members of its own, and those members.
        var stringMembers: [String: [String]] = [:]
        for id in Self.examples.keys where id.hasSuffix("-response") {
            let url = Fixtures.repository.appendingPathComponent("Schemas/\(id).json")
            let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            let keys = (schema["fields"] as? [[String: Any]] ?? []).compactMap { field -> String? in
                field["ref"] == nil && field["dataType"] as? String == "String" ? field["key"] as? String : nil
            }
            if !keys.isEmpty { stringMembers[id] = keys }
        }
        let id = try #require(stringMembers.keys.sorted().randomElement(using: &random))
        let open = Bool.random(using: &random)
        let mutation = Int.random(in: 0..<6, using: &random)
        let target = try #require(stringMembers[id]?.randomElement(using: &random))
        let member: [String: Any] = ["key": "addedMember", "dataType": "String", "name": ["en": "Added"]]
        let old = try Self.mutated("\(id).json") { $0["additionalFields"] = open }
        let new = try Self.mutated("\(id).json") { object in
            object["additionalFields"] = open
            var fields = object["fields"] as? [[String: Any]] ?? []
            switch mutation {
            case 0: fields.append(member)
            case 1: fields.append(member.merging(["required": true]) { $1 })
            case 2: fields.removeAll { $0["key"] as? String == target }
            case 3:
                guard let index = fields.firstIndex(where: { $0["key"] as? String == target }) else { break }
                fields[index]["required"] = nil
            case 4: object["additionalFields"] = true
            default:
                guard let index = fields.firstIndex(where: { $0["key"] as? String == target }) else { break }
                fields[index]["maxLength"] = 4_096
                fields[index]["minLength"] = nil
            }
            object["fields"] = fields
        }
        // What a gateway on the new version may send: each example, with the change's member added or left out.
        func response(from example: SchemaComparison.Example) throws -> [UInt8]? {
            guard var object = try JSONSerialization.jsonObject(with: Data(example.payload)) as? [String: Any] else {
                return nil
            }
            switch mutation {
            case 0, 1: object["addedMember"] = "GOLD"
            case 2, 3: object[target] = nil
            case 4: object["notInTheSchema"] = 1
            default: if object[target] is String { object[target] = String(repeating: "A", count: 300) }
            }
            return [UInt8](try JSONSerialization.data(withJSONObject: object))
        }
        let comparison = SchemaComparison(old: old, new: new, examples: Self.examples)
        let changes = comparison.changes().filter { $0.schema == id }
        let applied = "\(id) \(open ? "open" : "closed") #\(mutation) \(target)"
        var checked = 0
        for example in Self.examples[id] ?? [] {
            guard let payload = try response(from: example),
                let accepted = try? new.prepare(id, context: example.context, tenderType: example.tenderType)
                    .validate(json: payload),
                accepted.valid
            else { continue }
            checked += 1
            let refused = try old.prepare(id, context: example.context, tenderType: example.tenderType)
                .validate(json: payload)
            for violation in refused.errors {
                #expect(
                    changes.contains { $0.breaking && SchemaComparison.path(violation.path, isAt: $0.path) },
                    "\(applied): \(example.name) \(violation.path) [\(violation.rule)] has no breaking change: \(changes.map { "\($0.path) \($0.change) \($0.breaking)" })"
                )
            }
        }
        #expect(checked > 0 || mutation == 5, "\(applied): no example was a response of the new version")
        if mutation == 0 && open {
            #expect(changes.allSatisfy { !$0.breaking }, "\(applied): \(changes.map { "\($0.path) \($0.change)" })")
        }
    }
}

/// Payloads made from a schema, where no example fits: for every request schema and every scope a comparison reads,
/// the payload made is valid there.
struct MadePayloadTests {
    @Test func aPayloadMadeFromEachRequestSchemaIsValidUnderEveryScope() throws {
        let validator = Fixtures.validator
        let comparison = SchemaComparison(old: validator, new: validator)
        var made = 0
        var missing: [String] = []
        for id in validator.schemaIDs {
            let schema = try #require(validator.schema(id))
            guard schema.kind == .request else { continue }
            for scope in comparison.scopes(of: schema) {
                guard
                    let prepared = try? PreparedSchema(
                        schema: schema, context: scope.context, tenderType: scope.tenderType, now: validator.now)
                else { continue }
                guard let payload = comparison.madePayload(for: schema, in: scope, prepared: prepared) else {
                    missing.append("\(id) \(scope.context) \(scope.tenderType ?? "-")")
                    continue
                }
                #expect(prepared.validate(json: payload).valid)
                made += 1
            }
        }
        #expect(missing.isEmpty, "\(missing.count) of \(made + missing.count): \(missing)")
    }

    @Test(
        arguments: [
            "^[0-9]{9}$", "^[0-9]{3,4}$", #"^\d{5}(-\d{4})?$"#, "^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$", "^(?:GB|IE)[0-9]+$",
            #"^\+[1-9][0-9]{1,14}$"#, "^[A-Za-z .'-]+$", "^(SAVINGS|CHECKING)$", #"^\w+@\w+\.com$"#, "a.b",
        ])
    func aPatternsSampleMatchesIt(pattern: String) throws {
        let sample = try #require(PatternSample.sample(of: pattern))
        #expect(try CompiledPattern(pattern).match(sample) == .match, "\(sample)")
    }

    @Test(arguments: ["^(?=A)A$", "^[^0-9]+$", #"^(a)\1$"#, "^a{,3}$", "(", "^\\p{L}+$"])
    func aPatternBeyondTheSamplerGivesNoSample(pattern: String) {
        #expect(PatternSample.sample(of: pattern) == nil)
    }
}
