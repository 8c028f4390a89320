import DCEEngine
import DCEForms
import Foundation
import PropertyBased
import Testing

/// The consumers of a schema's rules agree with validation, for every shipped request schema, under no context and
/// under each declared context value and tender type: a form (`describeForm`) calls a field required exactly when an
/// empty request is reported missing it and shows the lengths validation enforces, and partial input (`checkInput`)
/// never calls valid a value that validation rejects for that field alone.
struct ConsumerAgreementTests {
    struct Setup: CustomStringConvertible, Sendable {
        var schema: String
        var context: [String: String]
        var tenderType: String?
        var description: String {
            ([schema] + context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                + (tenderType.map { ["tenderType=\($0)"] } ?? []))
                .joined(separator: " ")
        }
    }

    /// Every shipped request schema with no context, then with each context value and each tender type on its own.
    static let setups: [Setup] = Fixtures.validator.schemaIDs.flatMap { id -> [Setup] in
        guard let schema = Fixtures.validator.schema(id), schema.kind == .request else { return [] }
        var setups = [Setup(schema: id, context: [:], tenderType: nil)]
        for name in schema.contextNames {
            for value in schema.allowedValues(of: name) ?? [] {
                setups.append(Setup(schema: id, context: [name: value], tenderType: nil))
            }
        }
        for tenderType in schema.tenderTypes { setups.append(Setup(schema: id, context: [:], tenderType: tenderType)) }
        return setups
    }

    static func form(_ setup: Setup) throws -> [FormDescription.Field] {
        try Fixtures.validator.schema(setup.schema)!.describeForm(context: setup.context, tenderType: setup.tenderType)
            .groups.flatMap(\.fields)
    }

    static func validate(_ json: String, _ setup: Setup) throws -> ValidationReport {
        try Fixtures.validate(json, schema: setup.schema, context: setup.context, tenderType: setup.tenderType)
    }

    /// The pointer of the object that holds a member.
    static func parent(of pointer: String) -> String {
        String(pointer[..<(pointer.lastIndex(of: "/") ?? pointer.startIndex)])
    }

    /// A request that holds `leaf` at `pointer`, inside objects that hold nothing else: `{"a": {"b": leaf}}`; a
    /// list's `-` (a form's "every item") is its one item: `{"a": [{"b": leaf}]}`.
    static func request(placing leaf: String, at pointer: String) -> String {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
        return tokens.reversed().reduce(leaf) { inner, key in
            key == "-" ? "[\(inner)]" : "{\(jsonString(key)): \(inner)}"
        }
    }

    /// Where validation reports what a form names with `-`: in the one item of ``request(placing:at:)``.
    static func concrete(_ pointer: String) -> String {
        pointer.split(separator: "/", omittingEmptySubsequences: false).map { $0 == "-" ? "0" : String($0) }.joined(
            separator: "/")
    }

    /// The objects a form shows: its object fields, and the items of its lists of objects (`…/-`), each with
    /// whether it is forbidden.
    static func objects(in fields: [FormDescription.Field]) -> [String: Bool] {
        var objects: [String: Bool] = [:]
        for field in fields where field.dataType == "Object" { objects[field.path] = field.forbidden }
        for field in fields
        where field.dataType == "Array" && fields.contains(where: { parent(of: $0.path) == field.path + "/-" }) {
            objects[field.path + "/-"] = field.forbidden
        }
        return objects
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test func describeCallsAFieldRequiredExactlyWhenAnEmptyRequestIsMissingIt() throws {
        var checked = 0
        for setup in Self.setups {
            let fields = try Self.form(setup)
            let shown = Self.objects(in: fields)
            // The root, then each object the form shows, present and empty (with the objects above it), unless it
            // or an object above it is forbidden here: a forbidden object's members are not checked.
            let objects = [""] + shown.filter { !$0.value }.keys.sorted()
            for object in objects {
                var above = object
                var allowed = true
                while !above.isEmpty {
                    if shown[above] == true { allowed = false }
                    above = Self.parent(of: above)
                }
                guard allowed else { continue }
                let json = object.isEmpty ? "{}" : Self.request(placing: "{}", at: object)
                let missing = Set(try Self.validate(json, setup).errors.filter { $0.rule == .required }.map(\.path))
                for field in fields where Self.parent(of: field.path) == object {
                    checked += 1
                    #expect(
                        field.required == missing.contains(Self.concrete(field.path)),
                        "\(setup): describe calls \(field.path) \(field.required ? "required" : "optional"), but validating \(json) \(missing.contains(Self.concrete(field.path)) ? "reports" : "does not report") it missing"
                    )
                }
            }
        }
        #expect(checked > 200)
    }

    /// A form shows exactly the lengths validation enforces: for every text field of every setup, a value one code
    /// point short of the form's `minLength` is reported too short and one at it is not, a value at the form's
    /// `maxLength` is not reported too long and one past it is, and where the form shows no bound, validation
    /// enforces none (the empty string is not too short, 1,000 code points are not too long).
    @Test func describeShowsExactlyTheLengthsValidationEnforces() throws {
        var checked = 0
        for setup in Self.setups {
            let fields = try Self.form(setup)
            let objects = Self.objects(in: fields)
            // A field that provisioning ignores is flagged in the form and not validated then.
            let provisioning = setup.context["operation"] == "provision"
            for field in fields
            where ["String", "Date", "DateTime"].contains(field.dataType) && !field.forbidden
                && !(provisioning && field.ignoreForProvisioning)
            {
                // Only fields that a request of nested objects reaches, with no forbidden object above them.
                var above = Self.parent(of: field.path)
                var reachable = true
                while !above.isEmpty {
                    if objects[above] ?? true { reachable = false }
                    above = Self.parent(of: above)
                }
                guard reachable else { continue }
                func rules(length: Int) throws -> Set<ViolationCode> {
                    let json = Self.request(
                        placing: Self.jsonString(String(repeating: "é", count: length)), at: field.path)
                    return Set(
                        try Self.validate(json, setup).errors.filter { $0.path == Self.concrete(field.path) }.map(
                            \.rule))
                }
                let what =
                    "\(setup): \(field.path) (form: \(field.minLength.map(String.init) ?? "-")...\(field.maxLength.map(String.init) ?? "-"))"
                if let minimum = field.minLength, minimum > 0 {
                    #expect(
                        try rules(length: minimum - 1).contains(.minLength),
                        "\(what): \(minimum - 1) code points are not reported too short")
                }
                #expect(
                    try !rules(length: field.minLength ?? 0).contains(.minLength),
                    "\(what): the form's minimum is reported too short")
                if let maximum = field.maxLength {
                    #expect(
                        try !rules(length: maximum).contains(.maxLength),
                        "\(what): the form's maximum is reported too long")
                    #expect(
                        try rules(length: maximum + 1).contains(.maxLength),
                        "\(what): \(maximum + 1) code points are not reported too long")
                } else {
                    #expect(
                        try !rules(length: 1_000).contains(.maxLength),
                        "\(what): 1,000 code points are reported too long")
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// Values worth typing into each field: every value the field has in the schema's examples, each cut short,
    /// lengthened and changed by a character, the field's options, and noise.
    static let examples: [String: [String: [String]]] = {
        var values: [String: [String: [String]]] = [:]
        let directory = Fixtures.examples
        for schema in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let folder = directory.appendingPathComponent(schema)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            where file.hasSuffix(".json") {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path),
                    let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                else { continue }
                collect(value, pointer: "", into: &values[schema, default: [:]])
            }
        }
        return values
    }()

    private static func collect(_ value: Any, pointer: String, into values: inout [String: [String]]) {
        switch value {
        case let object as [String: Any]:
            for (key, member) in object { collect(member, pointer: pointer + "/" + key, into: &values) }
        case let array as [Any]:
            for element in array { collect(element, pointer: pointer + "/-", into: &values) }
        case let text as String: values[pointer, default: []].append(text)
        case let number as NSNumber: values[pointer, default: []].append(number.stringValue)
        default: break
        }
    }

    /// One generated case: a setup, one of its fields and a value typed into it.
    static let cases = Gen<UInt64>.value(in: 0...UInt64.max).map { seed -> (Setup, FormDescription.Field, String)? in
        var random = SplitMix(state: seed)
        let setup = setups[Int(random.next() % UInt64(setups.count))]
        let fields = ((try? form(setup)) ?? []).filter { !["Object", "Array"].contains($0.dataType) }
        guard !fields.isEmpty else { return nil }
        let field = fields[Int(random.next() % UInt64(fields.count))]
        var seeds = examples[setup.schema]?[field.path] ?? []
        seeds += field.options ?? []
        seeds += [
            "", "0", "1", "-1", "1.5", "true", "false", "EUR", "US", "DE", "+1 123456789", "1234", "12/30",
            "2026-11-23",
            "2026-11-23T10:00:00Z", "4111111111111111", "w1koQg==", "abcd", "Zürich", "São Paulo", "x y-z.", "AB-12 3",
        ]
        var value = seeds[Int(random.next() % UInt64(seeds.count))]
        let noise = Array("0123456789abcXYZ +-./:=_éß\u{300}")
        switch random.next() % 4 {
        case 0: value = String(value.prefix(Int(random.next() % UInt64(value.count + 1))))
        case 1: value.append(noise[Int(random.next() % UInt64(noise.count))])
        case 2 where !value.isEmpty:
            var characters = Array(value)
            characters[Int(random.next() % UInt64(characters.count))] = noise[Int(random.next() % UInt64(noise.count))]
            value = String(characters)
        default: break
        }
        return (setup, field, value)
    }

    @Test func checkInputNeverCallsValidWhatValidationRejectsForThatField() async throws {
        await propertyCheck(count: 4_000, input: Self.cases) { generated in
            guard let (setup, field, text) = generated else { return }
            let prepared = try Fixtures.validator.prepare(
                setup.schema, context: setup.context, tenderType: setup.tenderType)
            let feedback = try prepared.inputFeedback(text, at: field.path)
            guard feedback.verdict == .valid else { return }
            // Spaces and dashes in a card number are formatting while it is typed: what is stored is its digits.
            let stored = feedback.masked == nil ? text : String(text.filter { $0 != " " && $0 != "-" })
            // Typed text becomes a JSON string for text fields, and stands as itself for numbers and booleans.
            let leaf = ["Integer", "Number", "Boolean"].contains(field.dataType) ? stored : Self.jsonString(stored)
            let json = Self.request(placing: leaf, at: field.path)
            let rejected = try Self.validate(json, setup).errors.filter { $0.path == Self.concrete(field.path) }
            #expect(
                rejected.isEmpty,
                "\(setup): checkInput calls \(Self.jsonString(text)) valid for \(field.path), but validating \(json) reports \(rejected.map(\.rule))"
            )
        }
    }
}
