public import DCEEngine

/// The state of a form being filled in, answered from the rules in force for the draft as it stands: what an app binds
/// its SwiftUI or UIKit form to, and what `dce-validate preview` renders.
///
/// A session holds the draft. Each edit (``set(_:at:)``, ``remove(at:)``, ``addItem(to:)``) finds what validating the
/// draft whole finds, as the request will be validated (a keystroke checks again only what it can change: the value,
/// or its object when the object's rules judge its members together, when no condition reading the value answers
/// otherwise), and the session then says of every field of the form, in `order` and grouped by `dataGroup`
/// (``groups``): its state (empty, incomplete, valid, invalid with the message), whether it is required, forbidden
/// (with the reason) or ignored *now*, given what the draft holds (a physical program requires a delivery address; a
/// US context the consents), a card number's brand and candidates, and a masked field's masked form. ``violations``
/// are the draft's, as a Validate button lists them; ``request`` is what would be sent, with sensitive values masked;
/// ``example`` the draft without them.
///
/// ```swift
/// var form = try FormSession(validator.prepare("card-create", context: ["region": "EU"]))
/// try form.set("physical", at: "/cardType")
/// form.field(at: "/deliveryAddress")?.required      // true: a physical card is delivered
/// try form.set("4", at: "/paymentAccounts/0/cardNumber")   // after addItem(to: "/paymentAccounts")
/// ```
///
/// A value type: copy it to keep a state, compare two states, or hand one to another task.
public struct FormSession: Sendable {
    /// The prepared schema: the context, tender type and language the form is for.
    public let schema: PreparedSchema
    /// The schema's catalogue with a form's words (its groups' titles), made once.
    private let words: MessageCatalogue
    /// The draft as the edits made it.
    private var draft: SchemaValue = .object([])
    /// The draft read as a document, as validation last read it.
    private var document: JSONDocument?
    /// What validation last found in the draft, kept so that the next keystroke checks again only what it can change.
    private var found: FormFindings?
    /// The form's description as last worked out, with what it was worked out from.
    private var described: Described?
    /// Each field's state as last worked out, with what it followed from.
    private var worked = Worked(generation: -1)
    /// The fields whose state the last edit worked out again, by JSON Pointer; `nil` when every field's was (a new
    /// session, a removal, an item added). What a form model reads to bring only those fields in line.
    package private(set) var changedPaths: Set<String>?
    /// Whether the last edit kept every field where it was (the same fields, groups and order), so that only those of
    /// ``changedPaths`` need reading again: a keystroke checked again where it could change anything.
    package private(set) var keptFields = false
    /// Where each field is in ``groups``, by JSON Pointer, as the last whole working out placed it.
    private var places: [String: (group: Int, index: Int)] = [:]
    /// The field and tokens of each pointer a value was set at: a keystroke reads its pointer once.
    private var setAt: [String: (field: CompiledField, tokens: [String])] = [:]

    /// Each field's state as last worked out and what it followed from besides the description and its value.
    private struct Worked: Sendable {
        /// The description the states were worked out with (``Described/generation``).
        var generation: Int
        var states: [String: State] = [:]

        /// A reference: a state kept from one edit to the next is not copied.
        final class State: Sendable {
            let field: Field
            /// The compiled field and the value's tokens, to work the state out again.
            let compiled: CompiledField?
            let tokens: [String]
            let inForce: RulesInForce?
            let violations: [Violation]
            let ignored: Bool
            let month: Int
            /// Whether the verdict read other values of the draft (an address's part reads its country).
            let readOthers: Bool

            /// Whether the state still follows when the rules in force, violations, skip and month are these: its
            /// verdict read no other value. (Its value and description are the caller's to compare.)
            func stands(inForce: RulesInForce?, violations: [Violation], ignored: Bool, month: Int) -> Bool {
                !readOthers && self.month == month && self.ignored == ignored && self.violations == violations
                    && self.inForce == inForce
            }

            init(
                field: Field, compiled: CompiledField?, tokens: [String], inForce: RulesInForce?,
                violations: [Violation], ignored: Bool, month: Int, readOthers: Bool
            ) {
                self.field = field
                self.compiled = compiled
                self.tokens = tokens
                self.inForce = inForce
                self.violations = violations
                self.ignored = ignored
                self.month = month
                self.readOthers = readOthers
            }
        }
    }

    /// A description of the form and what it depends on beyond the prepared schema: the contexts derived from the
    /// values given, each value it read, and whether each object it asked of held a given value.
    private struct Described: Sendable {
        var scope: KnownScope?
        var reads: [[String]: String?]
        var holders: [[String]: Bool]
        var form: FormDescription?
        /// Counts the descriptions worked out: the same number is the same description.
        var generation: Int
        /// Each described field's tokens and compiled field, by path, found once per description.
        var fields: [String: (tokens: [String], compiled: CompiledField?)] = [:]

        /// Whether the values given now would be described the same.
        func holds(for known: [[String]: String], scope: KnownScope?) -> Bool {
            scope == self.scope && reads.allSatisfy { known[$0.key] == $0.value }
                && holders.allSatisfy { object in
                    known.keys.contains { GivenReads.isInside($0, object.key) } == object.value
                }
        }
    }
    /// The groups of fields, in the order of their first field, each field of each list item by its index.
    public private(set) var groups: [Group] = []
    /// Every violation of the draft as a whole, in the schema's language: what a Validate button lists (required
    /// fields not filled in yet among them).
    public private(set) var violations: [Violation] = []

    /// One `dataGroup` of the form.
    public struct Group: Sendable, Hashable {
        /// The data group (`CARD_INFORMATION`), `nil` for fields without one.
        public var dataGroup: String?
        /// The group's title in the form's language (`Card information`), from the message catalogue's
        /// `group.NAME`, or made from the name when the catalogue has none.
        public var title: String
        /// The fields, in `order`; a nested object's members follow it, a list's items follow the list.
        public var fields: [Field]
    }

    /// What a field's value is now.
    public enum State: String, Sendable, Hashable {
        /// Nothing is given.
        case empty
        /// Not valid yet, but more characters can make it valid.
        case incomplete
        /// Valid under the rules in force.
        case valid
        /// Invalid: no continuation can make it valid.
        case invalid
    }

    /// One field of the form, or one field of one item of a list.
    public struct Field: Sendable, Hashable {
        /// The JSON Pointer of the value (`/paymentAccounts/0/cardNumber`).
        public var path: String
        /// What the form shows for it: label, type, input hint, lengths, options, sensitivity.
        public var description: FormDescription.Field
        /// Its state now.
        public var state: State
        /// For an invalid or incomplete value: the rule it breaks now.
        public var rule: ViolationCode?
        /// For an invalid or incomplete value: validation's message, in the form's language (never the value).
        public var message: String?
        /// Whether it must be given now, given the draft (for a member of an object not given yet: once it is).
        public var required: Bool
        /// Whether it must not be given now.
        public var forbidden: Bool
        /// Why it must not be given, in the form's language, while it is forbidden.
        public var forbiddenReason: String?
        /// Whether validation skips it now (`ignoreForProvisioning` with `operation=provision`).
        public var ignored: Bool
        /// For a card number: the brand to show (``/DCEEngine/CardBrands/typing(_:)``).
        public var cardBrand: CardBrands.Brand?
        /// For a card number: the brands it can still be; `nil` for any other field.
        public var cardBrands: [CardBrands.Brand]?
        /// For a value of a field marked `maskingRequired`: its masked form (``/DCEEngine/Masking/mask(_:brands:)``), what a
        /// form shows once the field loses focus.
        public var masked: String?
        /// For a list: how many items it holds.
        public var itemCount: Int?
        /// For a field whose value must be found in another document (`existsIn`) that the prepared schema was given
        /// (``/DCEEngine/PreparedSchema/relating(_:)``): the values that document offers, those its `where` allows, sorted
        /// (the eligible programs of a card-programs-response for card-create's program name).
        public var choices: [String]?
    }

    /// Starts a session on an empty form, or on a draft.
    ///
    /// - Parameters:
    ///   - schema: The prepared schema (context, tender type and language).
    ///   - draft: What the form holds to begin with, as JSON (an object); `nil` for an empty form.
    /// - Throws: ``/DCEEngine/ValidatorError`` (`invalidDraft`) when the draft is not a JSON object.
    public init(_ schema: PreparedSchema, draft: [UInt8]? = nil) throws(ValidatorError) {
        self.schema = schema
        self.words = schema.messages.adding(.forms)
        if let draft {
            let document: JSONDocument
            do {
                document = try JSONDocument(bytes: draft)
            } catch {
                throw ValidatorError(code: .invalidDraft, message: "the draft is not JSON: \(error)", cause: error)
            }
            guard document.kind(of: document.root) == .object else {
                throw ValidatorError(code: .invalidDraft, message: "the draft is not a JSON object")
            }
            self.draft = SchemaValue(document: document, at: document.root)
        }
        refresh()
    }

    // MARK: - Edits

    /// Sets a field's value to text as typed: a number or `true`/`false` where the field wants one, else the text.
    /// Empty text removes the value (a form sends no empty field). The objects and lists on the way are added.
    ///
    /// - Parameters:
    ///   - text: The text typed (a card number without the spaces a form shows between groups).
    ///   - pointer: The field's JSON Pointer; a list item by its index.
    /// - Throws: ``/DCEEngine/ValidatorError``: `unknownField` when the pointer names no field; `invalidDraft` when an index is
    ///   past the end of its list.
    public mutating func set(_ text: String, at pointer: String) throws(ValidatorError) {
        guard !text.isEmpty else { return try remove(at: pointer) }
        let (field, tokens): (CompiledField, [String])
        if let known = setAt[pointer] {
            (field, tokens) = known
        } else {
            (field, tokens) = try self.field(named: pointer)
            setAt[pointer] = (field, tokens)
        }
        draft = try schema.schema.placing(SchemaValue.typed(text, as: field.dataType), at: tokens, in: draft)
        refresh(edited: tokens)
    }

    /// Removes the value at a pointer, a list's item among them (the items after it move up). Removing what the
    /// draft does not hold changes nothing.
    ///
    /// - Throws: ``/DCEEngine/ValidatorError`` (`unknownField`) when the pointer names no field.
    public mutating func remove(at pointer: String) throws(ValidatorError) {
        let (_, tokens) = try field(named: pointer)
        guard !tokens.isEmpty else {
            draft = .object([])
            return refresh()
        }
        draft = draft.removing(tokens[...])
        refresh()
    }

    /// Adds an empty item at the end of a list (an empty object for a list of objects).
    ///
    /// - Parameter list: The list's JSON Pointer (`/paymentAccounts`).
    /// - Returns: The new item's JSON Pointer (`/paymentAccounts/0`).
    /// - Throws: ``/DCEEngine/ValidatorError`` (`unknownField`) when the pointer names no list.
    @discardableResult
    public mutating func addItem(to list: String) throws(ValidatorError) -> String {
        let (field, tokens) = try field(named: list)
        guard field.dataType == .array, let items = field.items else {
            throw ValidatorError(
                code: .unknownField, message: "'\(list)' is not a list of schema '\(schema.schema.id)'")
        }
        let count = if case .array(let existing) = value(at: tokens) { existing.count } else { 0 }
        let empty: SchemaValue = items.dataType == .object ? .object([]) : items.dataType == .array ? .array([]) : .null
        draft = try schema.schema.placing(empty, at: tokens + [String(count)], in: draft)
        refresh()
        return JSONPointer.appending(String(count), to: list)
    }

    // MARK: - Reading

    /// Every field, group after group.
    public var fields: [Field] { groups.flatMap(\.fields) }

    /// The field at a pointer (a list item's field by its index), as the form shows it now.
    public func field(at pointer: String) -> Field? {
        for group in groups { if let field = group.fields.first(where: { $0.path == pointer }) { return field } }
        return nil
    }

    /// Whether the draft is valid as it stands.
    public var isValid: Bool { violations.isEmpty }

    /// What would be sent for the draft as it stands (defaults applied, fields ignored for provisioning left out),
    /// with every sensitive value masked or withheld as ``/DCEEngine/PreparedSchema/masked(json:limits:)`` shows a payload.
    public var request: [UInt8] {
        guard let document else { return Array("{}".utf8) }
        return (try? schema.masked(json: schema.resolvedPayload(document))) ?? Array("{}".utf8)
    }

    /// The draft as an example file would keep it: the values of fields marked `pciEncryptionRequired`,
    /// `storageRestricted` or `maskingRequired` left out (and card numbers anywhere), members the schema does not
    /// know dropped; pretty-printed JSON.
    public var example: [UInt8] {
        guard let document else { return Array("{}\n".utf8) }
        let (kept, _) = schema.schema.partition(
            document, removing: [.pciEncryptionRequired, .storageRestricted, .maskingRequired], keepUnknown: false)
        var omitted: [String] = []
        let clean = DraftStore.withoutCardNumbers(
            kept, pointer: "", brands: schema.schema.reference.cardBrands, omitted: &omitted)
        return Array((clean.prettyJSON(indent: "") + "\n").utf8)
    }

    /// The draft with every value as given, sensitive ones too: what an app validates, seals and sends when the form
    /// is submitted. Never log or store it.
    public var payload: [UInt8] { Array(draft.json.utf8) }

    /// The value at a pointer as text: a string as given, a number's digits, `true` or `false`; `nil` for none, a
    /// `null`, an object or a list. Package-only: a session shows no value of the draft to what prints it.
    package func text(at pointer: String) -> String? {
        JSONPointer.tokens(of: pointer).flatMap(text(at:))
    }

    /// The value at a pointer, given as its tokens, as text.
    package func text(at tokens: [String]) -> String? { Self.text(of: value(at: tokens)) }

    /// A scalar value as text; `nil` for none, a `null`, an object or a list.
    private static func text(of value: SchemaValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: number.description
        case .boolean(let flag)?: flag ? "true" : "false"
        default: nil
        }
    }

    // MARK: - Working it out

    private func field(named pointer: String) throws(ValidatorError) -> (CompiledField, [String]) {
        guard let field = schema.schema.field(at: pointer), let tokens = JSONPointer.tokens(of: pointer),
            !tokens.contains("-")
        else { throw schema.schema.noField(at: pointer) }
        return (field, tokens)
    }

    private func value(at tokens: [String]) -> SchemaValue? {
        var current: SchemaValue? = draft
        for token in tokens {
            switch current {
            case .object(let members)?: current = members.last { $0.key == token }?.value
            case .array(let items)?: current = Int(token).flatMap { $0 >= 0 && $0 < items.count ? items[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    /// Validates the draft and works out every field's state from what the walk found. After an edit of one value
    /// (`edited`, its tokens), a field whose state follows from what it followed from before keeps its state: the same
    /// description of the field, the same rules in force and violations, a value the edit did not touch (the edited
    /// value's own, its objects' and what is inside it are worked out again), and a verdict that read no other value.
    private mutating func refresh(edited: [String]? = nil) {
        // The draft is made of JSON values only, so it reads back; were it not to, the form would show no field.
        document = try? JSONDocument(bytes: Array(draft.json.utf8))
        guard let document else {
            (groups, violations, found, keptFields) = ([], [], nil, false)
            return
        }
        var strings: [[String]: String] = [:]
        DraftCheck.collectStrings(draft, at: [], into: &strings)
        let known = strings.filter { schema.schema.fields(along: $0.key).count == $0.key.count }
        let description = describe(known)
        // The last findings are taken, so that the recheck changes them in place; a full walk replaces them.
        if let edited, description.generation == worked.generation, let last = found.take(),
            let rechecked = schema.recheckForm(document, changedAt: edited, after: last),
            let unit = rechecked.rechecked
        {
            found = rechecked
            return rework(inside: unit, edited: edited, strings: strings)
        }
        let found = schema.evaluateForm(document)
        self.found = found
        keptFields = false
        violations = found.violations
        var byPath: [String: [Violation]] = [:]
        for violation in violations { byPath[violation.path, default: []].append(violation) }
        let month = schema.currentMonth
        let reusing = edited != nil
        let sameDescription = description.generation == worked.generation
        // Taken out of the session, so that changing one entry does not copy the others.
        var worked = Worked(generation: description.generation, states: reusing ? self.worked.states : [:])
        self.worked.states = [:]
        var changed: Set<String> = []
        places = [:]
        groups = (description.form?.groups ?? []).enumerated().map { place, group in
            var fields: [Field] = []
            for described in group.fields {
                guard let (tokens, compiled) = description.fields[described.path] else { continue }
                for instance in instances(of: tokens[...], prefix: []) {
                    // A field outside lists is at its described path; one inside is at its item's.
                    let pointer =
                        instance.count == tokens.count && !tokens.contains("-")
                        ? described.path : instance.reduce("") { JSONPointer.appending($1, to: $0) }
                    let inForce = found.fields[pointer]
                    let here = byPath[pointer] ?? []
                    let ignored =
                        !found.ignored.isEmpty
                        && instance.indices.contains { depth in
                            found.ignored.contains(
                                instance.prefix(depth + 1).reduce("") { JSONPointer.appending($1, to: $0) })
                        }
                    places[pointer] = (place, fields.count)
                    if reusing, let edited, let last = worked.states[pointer],
                        last.stands(inForce: inForce, violations: here, ignored: ignored, month: month),
                        !Self.isRelated(instance, edited),
                        sameDescription || Self.describes(last.field.description, as: described, at: pointer)
                    {
                        fields.append(last.field)
                        continue
                    }
                    var readOthers = false
                    let field = state(
                        of: described, compiled: compiled, at: instance, pointer: pointer, inForce: inForce,
                        violations: here, ignored: ignored, month: month
                    ) {
                        readOthers = true
                        return strings
                    }
                    worked.states[pointer] = Worked.State(
                        field: field, compiled: compiled, tokens: instance, inForce: inForce, violations: here,
                        ignored: ignored, month: month, readOthers: readOthers)
                    changed.insert(pointer)
                    fields.append(field)
                }
            }
            return Group(dataGroup: group.dataGroup, title: title(of: group.dataGroup), fields: fields)
        }
        self.worked = worked
        changedPaths = reusing ? changed : nil
    }

    /// After a keystroke checked again only inside `unit` (its value, or its object: ``found``'s `rechecked`), works
    /// out again the states of the fields inside it and of those whose verdict read other values; every other field
    /// keeps its state and place, for nothing it follows from changed. The fields changed are those whose state
    /// differs, and the edited value's own (its text changed).
    private mutating func rework(inside unit: String, edited: [String], strings: [[String]: String]) {
        guard let found else { return }
        violations = found.violations
        let month = schema.currentMonth
        let inside = unit + "/"
        let again = worked.states.compactMap { pointer, last in
            last.readOthers || pointer == unit || pointer.hasPrefix(inside) ? (pointer, last) : nil
        }
        var changed: Set<String> = []
        for (pointer, last) in again {
            guard let (group, index) = places[pointer] else { continue }
            let inForce = found.fields[pointer]
            let here = violations.filter { $0.path == pointer }
            let related = Self.isRelated(last.tokens, edited)
            // A member of the object besides the value typed, whose rules in force and violations stay: as it was.
            if !related, last.stands(inForce: inForce, violations: here, ignored: last.ignored, month: month) {
                continue
            }
            var readOthers = false
            let field = state(
                of: last.field.description, compiled: last.compiled, at: last.tokens, pointer: pointer,
                inForce: inForce, violations: here, ignored: last.ignored, month: month
            ) {
                readOthers = true
                return strings
            }
            worked.states[pointer] = Worked.State(
                field: field, compiled: last.compiled, tokens: last.tokens, inForce: inForce, violations: here,
                ignored: last.ignored, month: month, readOthers: readOthers)
            let differs = field != last.field
            if differs { groups[group].fields[index] = field }
            if differs || related { changed.insert(pointer) }
        }
        changedPaths = changed
        keptFields = true
    }

    /// The group and state of a field by its JSON Pointer, where the last whole working out placed it.
    package func located(_ pointer: String) -> (group: Group, field: Field)? {
        guard let (group, index) = places[pointer], group < groups.count, index < groups[group].fields.count else {
            return nil
        }
        return (groups[group], groups[group].fields[index])
    }

    /// Whether a field's description, at `pointer`, is what a new description of the form says of it: a description
    /// worked out again (a brand decided, an object given its first value) keeps most fields as they were.
    private static func describes(
        _ last: FormDescription.Field, as described: FormDescription.Field, at pointer: String
    ) -> Bool {
        var described = described
        described.path = pointer
        return last == described
    }

    /// Whether one value is inside the other, or is it: an edit of one changes the other's value.
    private static func isRelated(_ tokens: [String], _ edited: [String]) -> Bool {
        tokens.count <= edited.count ? edited.starts(with: tokens) : tokens.starts(with: edited)
    }

    /// The form's fields in force for the values given (the last description while nothing it depends on changed).
    private mutating func describe(_ known: [[String]: String]) -> Described {
        let scope = try? schema.schema.formScope(
            context: schema.contextValues, tenderType: schema.tenderType, given: known)
        if let described, described.holds(for: known, scope: scope) { return described }
        let reads = GivenReads()
        let form =
            (try? schema.schema.describeForm(
                context: schema.contextValues, tenderType: schema.tenderType, known: known, messages: schema.messages,
                reads: reads))
            ?? (try? schema.schema.describeForm(
                context: schema.contextValues, tenderType: schema.tenderType, known: [:], messages: schema.messages))
        var fields: [String: (tokens: [String], compiled: CompiledField?)] = [:]
        for group in form?.groups ?? [] {
            for field in group.fields {
                // A path's tokens and compiled field are the schema's: those of the last description stay.
                if let known = self.described?.fields[field.path] {
                    fields[field.path] = known
                    continue
                }
                guard let tokens = JSONPointer.tokens(of: field.path) else { continue }
                fields[field.path] = (tokens, schema.schema.fields(along: tokens).last)
            }
        }
        let described = Described(
            scope: scope, reads: reads.values, holders: reads.holders, form: form,
            generation: (self.described?.generation ?? 0) + 1,
            fields: fields)
        self.described = described
        return described
    }

    /// The tokens of every instance of a form field: each `-` replaced by the index of each item the draft's list
    /// holds there (none while the list is empty).
    private func instances(of tokens: ArraySlice<String>, prefix: [String]) -> [[String]] {
        guard let dash = tokens.firstIndex(of: "-") else { return [prefix + tokens] }
        let list = prefix + tokens[..<dash]
        guard case .array(let items)? = value(at: list) else { return [] }
        return items.indices.flatMap { instances(of: tokens[(dash + 1)...], prefix: list + [String($0)]) }
    }

    private func state(
        of described: FormDescription.Field, compiled: CompiledField?, at tokens: [String], pointer: String,
        inForce: RulesInForce?, violations here: [Violation], ignored: Bool, month: Int,
        strings: () -> [[String]: String]
    ) -> Field {
        var instance = described
        instance.path = pointer
        let rules = inForce?.rules
        let required =
            (rules?.presence.mustBePresent ?? described.required) || here.contains { $0.rule == .required }
        let forbidden = rules?.presence.mustBeAbsent ?? described.forbidden
        var field = Field(
            path: pointer, description: instance, state: .empty, required: required && !ignored,
            forbidden: forbidden && !ignored, ignored: ignored)
        if field.forbidden { field.forbiddenReason = forbiddenReason(rules, described: described) }
        if let compiled = inForce?.field ?? compiled { field.choices = schema.choices(for: compiled) }
        let value = value(at: tokens)
        if case .array(let items)? = value { field.itemCount = items.count }
        let text = Self.text(of: value)
        let own = here.filter { DraftCheck.ownRules.contains($0.rule) }
        switch value {
        case nil, .null?:
            field.state = .empty
        case .object?, .array?:
            field.state = own.isEmpty ? .valid : .invalid
            field.rule = own.first?.rule
            field.message = own.first?.message
        case .string?, .number?, .boolean?:
            let text = text ?? ""
            let verdict: InputVerdict =
                if let inForce {
                    schema.draftVerdict(
                        for: text, own: own, inForce: inForce, rules: rules, at: tokens, month: month,
                        strings: strings)
                } else {
                    own.isEmpty ? .valid : .invalid(own[0].rule)
                }
            switch verdict {
            case .valid: field.state = .valid
            case .incomplete:
                field.state = .incomplete
                field.rule = own.first?.rule
                field.message = own.first?.message
            case .invalid(let rule):
                field.state = .invalid
                field.rule = rule
                field.message = own.first { $0.rule == rule }?.message ?? own.first?.message
            }
            if described.masked, case .string(let string)? = value {
                field.masked = Masking.mask(string, brands: schema.schema.reference.cardBrands)
            }
        }
        if let rules = rules ?? compiled?.base,
            rules.formatList.contains(where: \.isCardNumber)
        {
            // Spaces and dashes between digits are skipped; anything else has no brand.
            let typing = schema.schema.reference.cardBrands.typing(text ?? "")
            field.cardBrand = typing.brand
            field.cardBrands = typing.candidates
        }
        return field
    }

    /// Why a field must not be given, as validation words it: the field's own message for `forbidden`, else the
    /// schema's, else the catalogue's.
    private func forbiddenReason(_ rules: Rules?, described: FormDescription.Field) -> String {
        let set = rules.map { AttributeSet($0, patterns: schema.schema.patterns) }
        let name = set.map { schema.messages.text($0.name) } ?? described.label
        return FindingWriter(messages: schema.messages, attributes: set).text(
            .forbidden, variant: nil, fallback: set?.message, .init(name: name))
    }

    /// A group's title: the catalogue's `group.NAME`, else the name in words (`CARD_INFORMATION`: Card information).
    private func title(of dataGroup: String?) -> String {
        guard let dataGroup else { return words.term("group.none") }
        let key = "group." + dataGroup
        let term = words.term(key)
        guard term == key else { return term }
        let words = dataGroup.split(separator: "_").map { $0.lowercased() }.joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}

extension FormSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The schema and how many fields and violations the form has: never a value of the draft.
    public var description: String {
        "FormSession(\(schema.schema.id), \(fields.count) fields, \(violations.count) violations)"
    }

    /// ``description``.
    public var debugDescription: String { description }

    /// The groups and violations, not the draft: a dump of a session shows no value typed.
    public var customMirror: Mirror {
        Mirror(self, children: ["groups": groups, "violations": violations], displayStyle: .struct)
    }
}
