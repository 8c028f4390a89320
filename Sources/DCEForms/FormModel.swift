public import DCEEngine
public import Observation

/// A form an app's screen binds to: observable, on the main actor, answered by the rules in force for the draft as it
/// stands, the same rules validation applies.
///
/// The model holds the draft. Each edit (``set(_:at:)``, ``remove(at:)``, ``addItem(to:)``, or a field's
/// ``FormField/text``) takes what a person types, keeps the value canonical (a card number's digits, an expiry as
/// `MM/YY`) and checks the draft again. ``fields`` lists the fields in force now, in `order` and by `dataGroup`; each
/// is a ``FormField`` observed on its own, so a row re-renders only when its own field changes. ``canSubmit`` is
/// validation's verdict on the draft and ``request()`` the payload to validate, seal and send.
///
/// ```swift
/// struct CardForm: View {
///     @State var form: FormModel
///     var body: some View {
///         Form {
///             ForEach(form.fields) { FieldRow(field: $0) }
///             Button("Add card") { send(form.request()) }.disabled(!form.canSubmit)
///         }
///     }
/// }
///
/// struct FieldRow: View {
///     @Bindable var field: FormField
///     var body: some View {
///         if field.isSecret {
///             SecureField(field.label, text: $field.text)
///         } else {
///             TextField(field.label, text: $field.entry)
///         }
///         if let message = field.message { Text(message).foregroundStyle(.red) }
///     }
/// }
/// ```
@Observable
@MainActor
public final class FormModel {
    /// The prepared schema the form is checked with: its context, tender type and language.
    public private(set) var schema: PreparedSchema
    /// The fields in force now, in `order`, group after group (``FormField/dataGroup``): a list's item fields after
    /// the list, a field no rule lets be given left out unless the draft holds a value for it (so that it can be
    /// cleared), a field validation skips (provisioning) left out.
    public private(set) var fields: [FormField] = []
    /// Whether the draft is valid as it stands: what enables a Submit button. `true` exactly when validating
    /// ``request()`` with ``schema`` finds nothing.
    public private(set) var canSubmit = false
    /// Every violation of the draft, in the form's language: what a Validate button lists.
    public private(set) var violations: [Violation] = []

    /// The schema's id, for what prints the form.
    @ObservationIgnored private nonisolated let schemaID: String
    /// The draft's state as validation last answered it.
    @ObservationIgnored private var session: FormSession
    /// Every field the session lists by JSON Pointer (those of ``fields`` and those not in force), each made once and
    /// then updated in place.
    @ObservationIgnored private var byPath: [String: FormField] = [:]
    /// Every field the session lists, in order: those of ``fields`` and those a rule forbids while empty or validation
    /// skips, for a tool that shows a schema whole (`dce-preview`).
    @ObservationIgnored package private(set) var allFields: [FormField] = []
    /// The session the form keeps: its masked request and its example, for a tool that shows them.
    package var formSession: FormSession { session }
    /// What was typed into each field, as typed, by JSON Pointer.
    @ObservationIgnored private var typed: [String: String] = [:]
    /// The field being edited, if any.
    @ObservationIgnored private var editing: String?
    /// The form's words (group titles, what a screen reader says of a hidden value).
    @ObservationIgnored private(set) var words: MessageCatalogue
    /// Counts the schemas and words the form has had: a field works out again what it had worked out from another.
    @ObservationIgnored private(set) var generation = 0

    /// A form on an empty draft, or on a draft (which may be invalid).
    ///
    /// - Parameters:
    ///   - schema: The prepared schema: context, tender type and language.
    ///   - draft: What the form holds to begin with, as a JSON object; `nil` for an empty form.
    /// - Throws: ``/DCEEngine/ValidatorError`` (`invalidDraft`) when the draft is not a JSON object.
    public init(_ schema: PreparedSchema, draft: [UInt8]? = nil) throws(ValidatorError) {
        self.schema = schema
        schemaID = schema.schema.id
        words = schema.messages.adding(.forms)
        session = try FormSession(schema, draft: draft)
        update()
    }

    // MARK: - Edits

    /// Sets a field's value from what a person typed: spaces and dashes in a card number, a slash or none in an
    /// expiry; empty text removes the value. The objects and lists on the way are added.
    ///
    /// - Parameters:
    ///   - text: The text as typed.
    ///   - pointer: The field's JSON Pointer; a list item's by its index (`/paymentAccounts/0/cardNumber`).
    /// - Throws: ``/DCEEngine/ValidatorError``: `unknownField` when the pointer names no field; `invalidDraft` when an
    ///   index is past the end of its list.
    public func set(_ text: String, at pointer: String) throws(ValidatorError) {
        let kind = byPath[pointer]?.kind ?? FormField.kind(at: pointer, in: schema)
        try session.set(FormField.canonical(text, kind: kind), at: pointer)
        typed[pointer] = text.isEmpty ? nil : text
        update()
    }

    /// Removes the value at a pointer, a list's item among them (the items after it move up).
    ///
    /// - Throws: ``/DCEEngine/ValidatorError`` (`unknownField`) when the pointer names no field.
    public func remove(at pointer: String) throws(ValidatorError) {
        try session.remove(at: pointer)
        // What was typed below the pointer goes; what was typed into a list's later items moves up with them.
        var moved: [String: String] = [:]
        for (path, text) in typed where !Self.isWithin(path, pointer) {
            moved[Self.movedUp(path, removing: pointer) ?? path] = text
        }
        typed = moved
        update()
    }

    /// Adds an empty item at the end of a list.
    ///
    /// - Parameter list: The list's JSON Pointer (`/paymentAccounts`).
    /// - Returns: The new item's JSON Pointer (`/paymentAccounts/0`).
    /// - Throws: ``/DCEEngine/ValidatorError`` (`unknownField`) when the pointer names no list.
    @discardableResult
    public func addItem(to list: String) throws(ValidatorError) -> String {
        let item = try session.addItem(to: list)
        update()
        return item
    }

    /// Checks the draft with another preparation of the same schema: another context or tender type
    /// (``/DCEEngine/PreparedSchema/preparing(context:tenderType:)``), or a new catalogue's version of it. What was
    /// typed is kept wherever its field is still in force; values of fields the new rules forbid or do not know are
    /// dropped.
    ///
    /// - Parameter schema: The prepared schema to check with from now on.
    /// - Throws: ``/DCEEngine/ValidatorError`` (`unknownSchema`) for a schema of another id: a form is for one schema.
    public func use(_ schema: PreparedSchema) throws(ValidatorError) {
        guard schema.schema.id == schemaID else {
            throw ValidatorError(
                code: .unknownSchema, message: "the form is for schema '\(schemaID)', not '\(schema.schema.id)'")
        }
        var next = try FormSession(schema, draft: session.payload)
        // Values of fields the new rules forbid or skip, and of fields the new schema does not know.
        var dropped = next.fields.filter { $0.state != .empty && ($0.forbidden || $0.ignored) }.map(\.path)
        for field in session.fields where field.state != .empty && schema.schema.field(at: field.path) == nil {
            dropped.append(field.path)
        }
        for path in dropped { try next.remove(at: path) }
        self.schema = schema
        words = schema.messages.adding(.forms)
        generation += 1
        session = next
        typed = typed.filter { next.field(at: $0.key).map { $0.state != .empty } ?? false }
        update()
    }

    /// Checks the draft with the form's schema as another validator has it (a new catalogue's: DCEClient's
    /// `SchemaCatalogue.updates()`), under the same context, tender type and language (``use(_:)``). What was typed
    /// stays where its field remains. Documents related to the prepared schema, a fingerprinter or a limit on errors
    /// are not carried over: prepare the schema and call ``use(_:)`` to keep them.
    ///
    /// - Throws: ``/DCEEngine/ValidatorError`` when the validator has no schema of the form's id, or it no longer
    ///   declares the context or tender type.
    public func adopt(_ validator: Validator) throws(ValidatorError) {
        try use(
            try validator.prepare(
                schemaID, context: schema.context, tenderType: schema.tenderType, messages: schema.messages))
    }

    /// Prepares the form's schema for another context or tender type and checks the draft with it (``use(_:)``).
    ///
    /// - Throws: ``/DCEEngine/ValidatorError`` when the schema does not declare the context or tender type.
    public func change(context: [String: String], tenderType: String?) throws(ValidatorError) {
        try use(try schema.preparing(context: context, tenderType: tenderType))
    }

    // MARK: - Reading

    /// The field at a pointer (a list item's by its index), while it is in ``fields``.
    public func field(at pointer: String) -> FormField? { byPath[pointer].flatMap { $0.isInForce ? $0 : nil } }

    /// What the form submits: the draft with every value as given, sensitive ones too. Validate it, seal it and
    /// send it; printing or dumping it shows none of its bytes.
    public func request() -> FormRequest { FormRequest(schema: schema.schema.id, json: session.payload) }

    // MARK: - Working it out

    /// Which field is being edited: its display shows the value, not its masked form, until it is not.
    func setEditing(_ pointer: String, _ isEditing: Bool) {
        let before = editing
        if isEditing {
            editing = pointer
        } else if editing == pointer {
            editing = nil
        }
        for group in session.groups {
            for state in group.fields where state.path == before || state.path == editing {
                byPath[state.path]?.apply(state, in: group, form: self)
            }
        }
    }

    /// What was typed into a field as typed, `nil` when it shows its value in the draft.
    func typedText(at pointer: String) -> String? { typed[pointer] }

    /// A field's value in the draft as text (a number's digits, `true` or `false`), `nil` when it has none.
    func value(at tokens: [String]) -> String? { session.text(at: tokens) }

    /// Whether a field is being edited.
    func isEditing(_ pointer: String) -> Bool { editing == pointer }

    /// Brings the observable state in line with the session: only what changed is assigned.
    private func update() {
        if session.keptFields, let changed = session.changedPaths {
            // A keystroke checked again where it could change anything: every field is where it was.
            var moved = false
            for path in changed {
                guard let field = byPath[path], let (group, state) = session.located(path) else { continue }
                let wasInForce = field.isInForce
                field.apply(state, in: group, form: self)
                moved = moved || field.isInForce != wasInForce
            }
            if moved { fields = allFields.filter(\.isInForce) }
        } else {
            updateFields()
        }
        if canSubmit != session.isValid { canSubmit = session.isValid }
        if violations != session.violations { violations = session.violations }
    }

    /// Brings every field in line with the session, and the lists of fields with its groups.
    private func updateFields() {
        var shown: [FormField] = []
        var all: [FormField] = []
        var kept: [String: FormField] = [:]
        // After an edit of one value, the session says which fields' states it worked out again; the others are as
        // they were, and so are their value, what was typed into them and the form's words.
        let changed = session.changedPaths
        for group in session.groups {
            for state in group.fields {
                let known = byPath[state.path]
                let field = known ?? FormField(path: state.path, model: self)
                if known == nil || changed.map({ $0.contains(state.path) }) ?? true {
                    field.apply(state, in: group, form: self)
                }
                all.append(field)
                kept[state.path] = field
                if field.isInForce { shown.append(field) }
            }
        }
        byPath = kept
        allFields = all
        if shown.map(ObjectIdentifier.init) != fields.map(ObjectIdentifier.init) { fields = shown }
    }

    /// Whether `path` is `pointer` or below it.
    private static func isWithin(_ path: String, _ pointer: String) -> Bool {
        path == pointer || path.hasPrefix(pointer + "/")
    }

    /// Where `path` is once the list item `pointer` names is removed, when it is in a later item of that list
    /// (`/accounts/2/number` for `/accounts/3/number` after `/accounts/1` goes); `nil` when it does not move.
    private static func movedUp(_ path: String, removing pointer: String) -> String? {
        guard let slash = pointer.lastIndex(of: "/"), let removed = Int(pointer[pointer.index(after: slash)...])
        else { return nil }
        let list = String(pointer[...slash])
        guard path.hasPrefix(list) else { return nil }
        let rest = path.dropFirst(list.count)
        let token = rest.prefix { $0 != "/" }
        guard let index = Int(token), index > removed else { return nil }
        return list + String(index - 1) + rest.dropFirst(token.count)
    }
}

/// What a form submits (``FormModel/request()``): the payload to validate, seal and send. Its description and mirror
/// say which schema it is for and how long it is, never a byte of it.
public struct FormRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The id of the schema it is for.
    public let schema: String
    /// The payload as JSON: every value as given, sensitive ones too. Seal it; never log or store it.
    public let json: [UInt8]

    /// The schema and the payload's length.
    public var description: String { "FormRequest(\(schema), \(json.count) bytes)" }

    /// ``description``.
    public var debugDescription: String { description }

    /// The schema only: a dump shows no byte of the payload.
    public var customMirror: Mirror { Mirror(self, children: ["schema": schema], displayStyle: .struct) }
}

extension FormModel: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The schema's id: never a value of the draft. Readable from any thread, as a log line or a crash report reads
    /// it.
    public nonisolated var description: String { "FormModel(\(schemaID))" }

    /// ``description``.
    public nonisolated var debugDescription: String { description }

    /// The schema's id only: a dump of a form shows no value typed.
    public nonisolated var customMirror: Mirror {
        Mirror(self, children: ["schema": schemaID], displayStyle: .class)
    }
}
