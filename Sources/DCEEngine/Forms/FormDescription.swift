internal import DCEPattern
import Foundation

/// What a screen needs to build a form from metadata alone: the fields of a schema, for one context and tender
/// type, in `order` and grouped by `dataGroup`.
///
/// ```swift
/// let form = try validator.schema("payment-account")!.describeForm(tenderType: "credit")
/// for group in form.groups { for field in group.fields { print(field.label, field.required, field.inputHint) } }
/// ```
public struct FormDescription: Codable, Sendable, Hashable {
    /// The schema id.
    public var schema: String
    /// The schema's title.
    public var title: String?
    /// The context the form was described for.
    public var context: [String: String]
    /// The tender type the form was described for.
    public var tenderType: String?
    /// The groups, in the order of their first field.
    public var groups: [Group]

    /// The fields of one `dataGroup` (`nil` for fields without one).
    public struct Group: Codable, Sendable, Hashable {
        /// The data group, such as `CARD_INFORMATION`.
        public var dataGroup: String?
        /// The fields, in `order` (then as written).
        public var fields: [Field]
    }

    /// One input of the form.
    public struct Field: Codable, Sendable, Hashable {
        /// The JSON Pointer of the value in the request; a field of the items of a list has `-` for the item
        /// (`/paymentAccounts/-/cardNumber`: that field of every item).
        public var path: String
        /// The member name.
        public var key: String
        /// The label (`name`).
        public var label: String
        /// The `dataType`.
        public var dataType: String
        /// Whether the field must be filled in for this context and tender type.
        public var required: Bool
        /// Whether another field's value can make it required (a rule the form should re-check as the user types).
        public var conditionallyRequired: Bool
        /// Whether the field must not be sent for this context and tender type (a form hides it).
        public var forbidden: Bool
        /// The minimum length, in characters.
        public var minLength: Int?
        /// The maximum length, in characters.
        public var maxLength: Int?
        /// The allowed values, when the field is a choice.
        public var options: [String]?
        /// How to present the input: `text`, `numeric`, `phone`, `date`, `datetime`, `toggle`, `choice`, `currency`,
        /// `country`, `group` (nested fields) or `list`.
        public var inputHint: String
        /// Whether the value is shown masked, as ``Masking/mask(_:brands:)`` shows it (`•••• •••• •••• 4215`).
        public var masked: Bool
        /// Whether the value must never be written to storage, logs or drafts.
        public var storageRestricted: Bool
        /// Whether the value is encrypted before it is sent.
        public var pciEncryptionRequired: Bool
        /// Whether an update may change it (`nil`: the schema does not say).
        public var updatesAllowed: Bool?
        /// Whether a change needs reverification.
        public var reverificationRequired: Bool
        /// Whether it is skipped when provisioning a new account.
        public var ignoreForProvisioning: Bool
        /// The `order` attribute.
        public var order: Int?
        /// For a member of an address (`postalAddress`): which part it is, and what its country says of it.
        public var address: AddressPart? = nil
    }

    /// What an address member is, and, once the address's country is given, what that country asks of it (from
    /// `Schemas/reference/addresses.json`): what a form needs to relabel, require, hide or offer choices for.
    public struct AddressPart: Codable, Sendable, Hashable {
        /// The part: `streetAddress`, `city`, `cityArea`, `state`, `postalCode` or `sortingCode`.
        public var part: String
        /// The JSON Pointer of the member naming the country, whose value these rules follow.
        public var countryPath: String
        /// The country given (ISO 3166-1 alpha-2), when it is one the data knows.
        public var country: String?
        /// Whether the country's addresses have the part (a form may hide it when not).
        public var used: Bool?
        /// Whether the country requires it (also reflected in ``Field/required``).
        public var required: Bool?
        /// What the country calls it, as the data names it (`zip`, `postal`, `pin`; `state`, `province`, `prefecture`).
        public var name: String?
        /// Postal codes of the country (or of the given state), for a placeholder.
        public var examples: [String]?
        /// The country's subdivisions, for a state: how the post writes each and its first other name.
        public var subdivisions: [Subdivision]?
    }

    /// A state, province or other subdivision a form offers.
    public struct Subdivision: Codable, Sendable, Hashable {
        /// How the post writes it (`CA`), the value to send.
        public var key: String
        /// Its name (`California`), when the data has one beside the key.
        public var name: String?
    }
}

extension CompiledSchema {
    /// Describes the schema's form for a context and tender type.
    ///
    /// Overrides that depend only on the context or the tender type are applied; an override that depends on the
    /// value of another field marks the field ``FormDescription/Field/conditionallyRequired`` when it can make it
    /// required.
    ///
    /// Values other fields already hold may be `given`: an override whose condition reads one of them applies or not
    /// as the value decides, and an address's members follow its given country (``FormDescription/AddressPart``).
    ///
    /// - Parameters:
    ///   - context: Context values, such as `["region": "US"]`.
    ///   - tenderType: The tender type.
    ///   - given: What other fields already hold, by JSON Pointer, as text (`["/countryCode": "DE"]`).
    ///   - language: The language of the title and labels (`de`); a language the schema does not give reads English.
    /// - Returns: The form.
    /// - Throws: ``ValidatorError`` for an undeclared context or value, an unknown tender type, or a pointer of `given`
    ///   that names no field.
    public func describeForm(
        context: [String: String] = [:], tenderType: String? = nil, given: [String: String] = [:],
        language: String = "en"
    ) throws(ValidatorError) -> FormDescription {
        let known = try givenValues(given)
        let fields = try fieldsInForce(context: context, tenderType: tenderType, given: known).map { entry in
            var described = describe(
                entry.field, key: entry.key, path: entry.path, attributes: entry.rules, metadata: entry.metadata,
                conditional: entry.conditional, language: language)
            describeObjectRules(
                &described, place: entry.place, of: entry.parent, at: Array(entry.tokens.dropLast()), given: known)
            return (field: described, group: entry.group, rank: entry.rank)
        }
        var groups: [FormDescription.Group] = []
        for entry in fields {
            if let index = groups.firstIndex(where: { $0.dataGroup == entry.group }) {
                groups[index].fields.append(entry.field)
            } else {
                groups.append(FormDescription.Group(dataGroup: entry.group, fields: [entry.field]))
            }
        }
        let ranks = Dictionary(fields.map { ($0.field.path, $0.rank) }) { first, _ in first }
        for index in groups.indices {
            groups[index].fields.sort { (ranks[$0.path] ?? []).lexicographicallyPrecedes(ranks[$1.path] ?? []) }
        }
        return FormDescription(
            schema: id, title: root.base.name?.text(in: language), context: context, tenderType: tenderType,
            groups: groups)
    }

    /// Every field of the schema with what holds for it under a context and tender type, as a form sees it before
    /// anything but `given` is typed: each member of each object, and the fields of the items of every list of
    /// objects under `-` (RFC 6901's "the item after the last"), parents before their members. With `primitiveItems`,
    /// the items of a list of values too (at `path/-`, their parent the list): what a comparison of two schemas reads.
    ///
    /// - Throws: ``ValidatorError`` for an undeclared context or value, or an unknown tender type.
    package func fieldsInForce(
        context: [String: String], tenderType: String?, given: [[String]: String] = [:], primitiveItems: Bool = false
    ) throws(ValidatorError) -> [FieldInForce] {
        let start = try FormScope(
            slots: contextSlots(context, tenderType: tenderType).map(KnownValue.known), tenderType: tenderType)
        // A field's rank is its parent's rank followed by its own (order, position): nested fields stay under their group.
        var fields: [FieldInForce] = []
        func visit(
            _ field: CompiledField, path: String, tokens: [String], inheritedGroup: String?, rank: [Int],
            scope: FormScope
        ) {
            for (position, child) in field.fields.enumerated() {
                guard let key = child.key else { continue }
                let childPath = JSONPointer.appending(key, to: path)
                let childTokens = tokens + [key]
                let scope = scope.bound(by: child, at: childTokens, in: self, given: given)
                let (attributes, conditional) = formAttributes(of: child, scope: scope, at: childTokens, given: given)
                let metadata = child.metadata(for: scope.shownTenderType)
                let group = metadata.dataGroup ?? inheritedGroup
                let childRank = rank + [metadata.order ?? Int.max, position]
                fields.append(
                    FieldInForce(
                        field: child, key: key, path: childPath, tokens: childTokens, rules: attributes,
                        conditional: conditional, metadata: metadata, group: group, rank: childRank, parent: field,
                        place: position, tenderType: scope.shownTenderType))
                if child.dataType == .object {
                    visit(
                        child, path: childPath, tokens: childTokens, inheritedGroup: group, rank: childRank,
                        scope: scope)
                }
                guard child.dataType == .array, let items = child.items else { continue }
                let itemTokens = childTokens + ["-"]
                let itemScope = scope.bound(by: items, at: itemTokens, in: self, given: given)
                if items.dataType == .object {
                    visit(
                        items, path: childPath + "/-", tokens: itemTokens, inheritedGroup: group, rank: childRank,
                        scope: itemScope)
                } else if primitiveItems {
                    let (rules, conditional) = formAttributes(of: items, scope: itemScope, at: itemTokens, given: given)
                    fields.append(
                        FieldInForce(
                            field: items, key: "-", path: childPath + "/-", tokens: itemTokens, rules: rules,
                            conditional: conditional, metadata: items.metadata(for: itemScope.shownTenderType),
                            group: group, rank: childRank + [0], parent: child, place: 0,
                            tenderType: itemScope.shownTenderType))
                }
            }
        }
        visit(root, path: "", tokens: [], inheritedGroup: nil, rank: [], scope: start.derived(in: self, given: given))
        return fields
    }

    /// The attributes in force for a form, and whether a field-dependent override can make the field required.
    ///
    /// A value a field binds from one of its members is, before anything is typed, the value from outside (the
    /// member is empty); that decides the attributes. Once the member is given it may change them: an override that
    /// then depends on it makes the field conditionally required when it could require it, or when the field is
    /// required now and the override could release it.
    func formAttributes(
        of field: CompiledField, scope: FormScope, at tokens: [String] = [], given: [[String]: String] = [:]
    ) -> (Rules, Bool) {
        guard let id = program.id(of: field) else { return (field.base, false) }
        // Relative pointers climb from the objects holding the field, the innermost first.
        let containers = (0..<max(tokens.count, 1)).reversed().map { Array(tokens.prefix($0)) }
        var settled = FormConditionReader(
            schema: self, scope: scope, settled: true, containers: containers, given: given)
        var open = FormConditionReader(schema: self, scope: scope, settled: false, containers: containers, given: given)
        let (rules, undecided, undecidedOnceGiven) = program.withTables { tables in
            let settledRules = tables.rules(of: id, reading: &settled)
            return (settledRules.rules, settledRules.undecided, tables.rules(of: id, reading: &open).undecided)
        }
        let mayRequire = (undecided + undecidedOnceGiven).contains { field.overrides[$0].patch.presence.mayRequire }
        let conditional = mayRequire || (!undecidedOnceGiven.isEmpty && field.base.presence.mustBePresent)
        return (rules, conditional && !rules.presence.mustBePresent)
    }

    private func describe(
        _ field: CompiledField, key: String, path: String, attributes: Rules, metadata: FieldMetadata,
        conditional: Bool,
        language: String
    ) -> FormDescription.Field {
        let options = attributes.options?.labels
        let lengths = attributes.effectiveLengths
        return FormDescription.Field(
            path: path, key: key, label: (attributes.name ?? field.label).text(in: language),
            dataType: field.dataType.rawValue, required: attributes.presence.mustBePresent,
            conditionallyRequired: conditional, forbidden: attributes.presence.mustBeAbsent, minLength: lengths.lower,
            maxLength: lengths.upper, options: options,
            inputHint: Self.inputHint(field, attributes, hasOptions: options != nil),
            masked: metadata.maskingRequired ?? false, storageRestricted: metadata.storageRestricted ?? false,
            pciEncryptionRequired: metadata.pciEncryptionRequired ?? false, updatesAllowed: metadata.updatesAllowed,
            reverificationRequired: metadata.reverificationRequired ?? false,
            ignoreForProvisioning: metadata.ignoreForProvisioning ?? false, order: metadata.order)
    }

    /// Adds to a member what the rules over its object's members say of it
    /// (``ObjectRuleKind/describe(_:keys:at:given:reference:)``): for a part of an address, what part it is and,
    /// when the address's country is given and known, what the country asks of it (when it requires the part, the
    /// field is required).
    private func describeObjectRules(
        _ described: inout FormDescription.Field, place: Int, of object: CompiledField, at tokens: [String],
        given: [[String]: String]
    ) {
        guard !object.objectRules.isEmpty else { return }
        let keys = object.fields.map(\.key)
        func value(_ member: Int) -> String? { keys[member].flatMap { given[tokens + [$0]] } }
        for rule in object.objectRules {
            guard let part = rule.describe(place, keys: keys, at: tokens, given: value, reference: reference) else {
                continue
            }
            if part.required == true { described.required = true }
            described.address = FormDescription.AddressPart(
                part: part.part, countryPath: part.countryPath, country: part.country, used: part.used,
                required: part.required, name: part.name, examples: part.examples,
                subdivisions: part.subdivisions?.map { FormDescription.Subdivision(key: $0.key, name: $0.name) })
        }
    }

    /// The kind of input a field wants, from its type, its formats and its patterns.
    private static func inputHint(_ field: CompiledField, _ attributes: Rules, hasOptions: Bool) -> String {
        switch field.dataType {
        case .boolean: return "toggle"
        case .date: return "date"
        case .dateTime: return "datetime"
        case .object: return "group"
        case .array: return "list"
        case .integer, .number: return "numeric"
        case .string: break
        }
        if hasOptions { return "choice" }
        let formatKinds = Set(attributes.formatList.compactMap(\.inputKind))
        // by precedence
        if let kind = ["currency", "country", "numeric"].first(where: formatKinds.contains) { return kind }
        let patterns = attributes.validationList.compactMap(\.regex)
        if patterns.contains(where: { $0.hasPrefix("^\\+") }) { return "phone" }
        if !patterns.isEmpty, patterns.allSatisfy(isDigitsOnly) { return "numeric" }
        return "text"
    }

    /// Whether a pattern accepts only digits: built from `[0-9]` or `\d`, counts, groups and alternatives.
    private static func isDigitsOnly(_ pattern: String) -> Bool {
        let stripped = pattern.replacingOccurrences(of: "[0-9]", with: "D").replacingOccurrences(of: "\\d", with: "D")
        return stripped.contains("D") && stripped.allSatisfy { "D^$(){},|?0123456789".contains($0) }
    }
}

/// The contexts and tender type a form knows at one field: the caller's, with what the schema derives and the fields
/// above bind (``RuleProgram/Tables/bind(_:objectPresent:member:reading:)``). A fixed binding is known; one read
/// from a member is the value from outside while the member is empty, and open once it is given (unless it is given);
/// one a `derive` rule reads from the request is known only when the values it reads are given.
struct FormScope {
    var slots: [KnownValue]
    var tenderType: KnownValue
    /// The last tender type known on the way down, whose metadata (`dataGroup`, `order`, …) the form shows.
    var shownTenderType: String?
    /// Slots (and the tender type, `nil`) bound from a member not given yet.
    var open: Set<Int?> = []

    init(slots: [KnownValue], tenderType: String?) {
        self.slots = slots
        self.tenderType = .known(tenderType)
        self.shownTenderType = tenderType
    }

    /// The scope with the contexts the caller left out derived, as validation derives them from the request.
    func derived(in schema: CompiledSchema, given: [[String]: String]) -> FormScope {
        var reader = FormConditionReader(schema: schema, scope: self, settled: true, containers: [[]], given: given)
        schema.program.withTables { $0.deriveContexts(reading: &reader) }
        return reader.scope
    }

    /// The scope inside a field's value, at `tokens`.
    func bound(by field: CompiledField, at tokens: [String], in schema: CompiledSchema, given: [[String]: String])
        -> FormScope
    {
        guard !field.bindings.isEmpty, let id = schema.program.id(of: field) else { return self }
        var reader = FormConditionReader(schema: schema, scope: self, settled: true, containers: [tokens], given: given)
        schema.program.withTables { tables in
            tables.bind(
                id, objectPresent: true,
                member: { key, allowed in
                    guard let value = given[tokens + [key]] else { return .notKnown }
                    return allowed?.contains(value) ?? true ? .value(value) : .none
                }, reading: &reader)
        }
        return reader.scope
    }
}

/// Conditions as a form sees them before anything is typed: the context and tender type are known; a request value
/// is known when it is given, and a context derived or bound from request values only when those are.
private struct FormConditionReader: ScopeReader {
    let schema: CompiledSchema
    var scope: FormScope
    /// Whether values bound from members are read as they stand while the members are empty (the value from
    /// outside), or as open (unknown).
    let settled: Bool
    /// The objects holding the field, by their tokens from the root, the innermost first (relative pointers climb
    /// from them), and the values given for fields.
    let containers: [[String]]
    let given: [[String]: String]

    func isEmpty(slot: Int) -> Bool { scope.slots[slot] == .known(nil) }

    mutating func set(_ slot: Int?, to value: KnownValue) {
        if let slot {
            scope.slots[slot] = value
        } else {
            if case .known(let known?) = value {
                guard schema.tenderTypes.contains(known) else { return }  // as validation: the outside one stays
                scope.shownTenderType = known
            }
            scope.tenderType = value
        }
        scope.open.remove(slot)
    }

    mutating func markOpen(_ slot: Int?) { scope.open.insert(slot) }

    func test(_ test: Int, context slot: Int, in program: RuleProgram.Tables) -> Bool? {
        if !settled && scope.open.contains(slot) { return nil }
        return scope.slots[slot].passes(program.testObjects[test])
    }

    func testTenderType(_ test: Int, in program: RuleProgram.Tables) -> Bool? {
        if !settled && scope.open.contains(nil) { return nil }
        return scope.tenderType.passes(program.testObjects[test])
    }

    /// A test on another field's value: known only when the value is given.
    func test(_ test: Int, field up: Int, tokens: Range<Int>, in program: RuleProgram.Tables) -> Bool? {
        guard up < containers.count else { return nil }
        let target = (up < 0 ? [] : containers[up]) + Array(program.tokenTexts[tokens])
        return given[target].flatMap { program.testObjects[test].holds(forGivenText: $0) }
    }
}

/// One field of a schema and what holds for it under a context and tender type (``CompiledSchema/fieldsInForce``).
package struct FieldInForce {
    package let field: CompiledField
    /// The member name (`-` for the items of a list of values).
    let key: String
    /// The JSON Pointer in a payload, list items as `-`.
    package let path: String
    package let tokens: [String]
    /// The rules in force: the base, the tender type's entries and the overrides that hold.
    package let rules: Rules
    /// Whether an override reading another field's value can make it required.
    let conditional: Bool
    package let metadata: FieldMetadata
    /// The `dataGroup`, its own or its parent's.
    package let group: String?
    /// Where a form puts it: its parent's rank, then its `order` and place.
    let rank: [Int]
    /// The object (or list) holding it, and its place among that object's fields.
    let parent: CompiledField
    let place: Int
    /// The tender type in force there, when one is known.
    let tenderType: String?
}
