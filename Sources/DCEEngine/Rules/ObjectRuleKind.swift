internal import DCEPattern

/// A rule that judges the members of an object together, written as one attribute of the object's field
/// (`"postalAddress": {"country": "countryCode", "postalCode": "zip"}`).
///
/// A kind is one type in one file holding every view the engine asks of a rule:
/// - reading the attribute (``decode(_:with:)``);
/// - checking it against the object's members (``compile(_:members:object:report:)``);
/// - judging a payload (``evaluate(_:reference:into:)``) and wording what it found (``message(for:writer:reference:)``);
/// - judging a value while it is typed (``judge(partial:at:given:reference:)``);
/// - what a form shows of a member (``describe(_:keys:at:given:reference:)``);
/// - the same rule in JSON Schema (``export(keys:reference:)``).
///
/// The engine asks a kind through this protocol only, so a new kind is its own file, a line in
/// ``ObjectRuleKinds/builtIn``, the meta-schema's entry for the attribute and, for a message of its own, the
/// catalogues' variants (see `CONTRIBUTING.md`, "A new rule kind").
package protocol ObjectRuleKind: Sendable {
    /// What the attribute says, as read from the schema before the object's members are known (a `ref` can bring
    /// them).
    associatedtype Definition: Sendable

    /// The attribute that writes the rule on an object field.
    static var attribute: String { get }

    /// Reads the attribute's value; `reader` reports each problem at its pointer, line and column. `nil` when it
    /// cannot be read.
    static func decode(_ entry: AttributeEntry, with reader: inout some AttributeReader) -> Definition?

    /// The rule over the object's members (key and data type, in the order of the object's fields), or `nil` when
    /// it cannot hold; each problem goes to `report`. `object` names the object in a message (`'billingAddress'`).
    static func compile(
        _ definition: Definition, members: [ObjectRuleMember], object: String,
        report: (ObjectRuleProblem, String) -> Void
    ) -> Self?

    /// Judges a present object after its members' own rules, adding what it finds to `findings`. A member that broke
    /// its own rules (``ObjectRuleMembers/isClean(_:)``) should not be judged again, so that each gets one message.
    func evaluate(_ members: ObjectRuleMembers, reference: ReferenceData, into findings: inout [ObjectRuleFinding])

    /// The message of a finding this kind made, in the writer's language. It names fields and rules, never a value.
    func message(for finding: ObjectRuleFinding, writer: some RuleMessageWriter, reference: ReferenceData) -> String

    /// What the rule says of a member while `text` is typed into it, given the other members' values known so far
    /// (`given(place)`); `nil` when it says nothing of that member.
    func judge(partial text: String, at place: Int, given: (Int) -> String?, reference: ReferenceData)
        -> InputVerdict?

    /// What a form shows of the member at `place` of the object at `tokens`, given what is known of the other
    /// members; `nil` when the rule says nothing of it.
    func describe(_ place: Int, keys: [String?], at tokens: [String], given: (Int) -> String?, reference: ReferenceData)
        -> MemberPart?

    /// The same rule as JSON Schema 2020-12 subschemas over the members' keys, each applying to the object; empty
    /// when the rule cannot be said there (the export's limitations then say so).
    func export(keys: [String?], reference: ReferenceData) -> [SchemaValue]
}

extension ObjectRuleKind {
    func judge(partial text: String, at place: Int, given: (Int) -> String?, reference: ReferenceData)
        -> InputVerdict?
    { nil }

    func describe(_ place: Int, keys: [String?], at tokens: [String], given: (Int) -> String?, reference: ReferenceData)
        -> MemberPart?
    { nil }

    /// The attribute that wrote this rule.
    package var attribute: String { Self.attribute }
}

/// The kinds of object rule the engine reads, in the order their attributes are read.
enum ObjectRuleKinds {
    /// Every kind the schema language has.
    static let builtIn: [any ObjectRuleKind.Type] = [PostalAddressRule.self]
}

/// Where an attribute's value is in the schema file being read.
package struct AttributeEntry {
    var index: JSONDocument.Index
    /// The value's JSON Pointer in its file.
    var pointer: String
}

/// Reads an attribute's value, reporting each problem at its pointer, line and column (the schema decoder).
package protocol AttributeReader {
    /// The members of the object at `entry`, in the order written; `nil` (reported) when it is no object. A member
    /// not `allowed` is reported and left out; `what` names the object in a message ("an object of address members").
    mutating func members(of entry: AttributeEntry, allowed: [String]?, what: String)
        -> [(key: String, entry: AttributeEntry)]?

    /// The string at `entry`; `nil` (reported) when it is something else, or, when `required`, missing from `parent`.
    mutating func string(_ entry: AttributeEntry?, named name: String, required: Bool, in parent: AttributeEntry)
        -> String?

    /// The strings of the array at `entry`; `nil` (reported) when it is no array, each element that is no string
    /// reported and left out.
    mutating func strings(_ entry: AttributeEntry) -> [String]?

    /// Where the entry is, for a problem found once the members are known.
    func location(of entry: AttributeEntry) -> SchemaLocation
}

/// A member of the object a rule is written on.
package struct ObjectRuleMember: Sendable {
    /// Its key; `nil` for none (an item).
    var key: String?
    var dataType: DataType
}

/// What is wrong with an object rule once the object's members are known.
package enum ObjectRuleProblem {
    /// It names a member the object does not have.
    case unknownMember
    /// It names a member of a type it cannot judge, or says something impossible.
    case invalid
    /// It names a member twice.
    case duplicate
}

/// What an object rule found: the rule broken, at which member (its place among the object's fields; a missing
/// member is reported at its object), and a detail only the kind reads, for its message.
package struct ObjectRuleFinding: Sendable {
    var rule: ViolationCode
    var member: Int
    var detail: Int = 0
}

/// What an object rule sees of a present object during validation, its members by their place among the object's
/// fields. A plain value over the document's storage, holding no reference: validation makes one for every object a
/// rule is on, and it is valid only during the call it is given to.
package struct ObjectRuleMembers {
    /// The document.
    let document: JSONDocument
    /// Each member's value by its place among the object's fields (from the slice's start); -1 when missing.
    let found: ArraySlice<JSONDocument.Index>
    /// Bit i set when member i broke none of its own rules.
    let clean: UInt64
    /// Match data for the rule's patterns.
    let scratch: MatchScratch

    /// What the member holds.
    func value(_ place: Int) -> MemberValue {
        let value = found[found.startIndex + place]
        guard value >= 0 else { return .missing }
        switch document.nodes[value].kind {
        case .null: return .null
        case .string: return document.nodes[value].length == 0 ? .emptyString : .string
        default: return .other
        }
    }

    /// Whether the member broke none of its own rules (a missing one that nothing required is clean).
    func isClean(_ place: Int) -> Bool { place < 64 && clean & (1 << UInt64(place)) != 0 }

    /// Runs `body` over the UTF-8 bytes of a member holding a string.
    func withStringBytes<Result>(_ place: Int, _ body: (Span<UInt8>) -> Result) -> Result {
        document.withStringBytes(at: found[found.startIndex + place], body)
    }
}

/// What a member of an object holds, as an object rule sees it.
enum MemberValue {
    case missing, null, emptyString, string, other

    /// Missing, `null` or the empty string: nothing given.
    var isEmpty: Bool { self == .missing || self == .null || self == .emptyString }
}

/// Words a message in the validation's language, for the member a finding is about (its own message templates
/// first).
package protocol RuleMessageWriter {
    /// The catalogue's language (`en`).
    var language: String { get }
    /// The member's name in that language.
    var name: String { get }
    /// The member's message for `rule` (its schema's `messages` first, then the catalogue's `variant`).
    func text(_ rule: ViolationCode, variant: String?, _ parameters: MessageParameters) -> String
    /// How the catalogue names a term (`subdivision.state`).
    func term(_ key: String) -> String
}

/// What a form shows of a member an object rule gives a part to (an address's postal code): the form description's
/// DCEForms' `FormDescription.AddressPart`.
package struct MemberPart: Sendable {
    /// The member's part (`postalCode`).
    package var part: String
    /// The JSON Pointer of the member whose value the rule follows (the address's country).
    package var countryPath: String
    /// The rest, once the country is given and the data knows it: the country, whether it uses and requires the
    /// part, what it calls it, example values, and the values it allows (a state's subdivisions).
    package var country: String?
    package var used: Bool?
    package var required: Bool?
    package var name: String?
    package var examples: [String]?
    package var subdivisions: [(key: String, name: String?)]?
}
