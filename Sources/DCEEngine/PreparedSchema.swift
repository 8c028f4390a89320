package import Foundation

/// A compiled schema with its context and tender type checked once, ready to validate many payloads.
///
/// ```swift
/// let prepared = try validator.prepare("card-create", context: ["region": "EU"])
/// for payload in payloads { let report = prepared.validate(json: payload) }   // no throwing, no re-checking
/// ```
public struct PreparedSchema: Sendable, CustomStringConvertible, CustomReflectable {
    /// The schema id and version, context and tender type.
    public var description: String {
        "PreparedSchema(\(schema.id) \(schema.version), context \(context.sorted { $0.key < $1.key }), tender type \(tenderType ?? "none"), \(messages.language))"
    }
    /// No children: the compiled schema is large and says nothing about a payload.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// The compiled schema.
    public let schema: CompiledSchema
    /// The tender type whose overrides apply.
    public let tenderType: String?
    /// The language of the messages.
    public let messages: MessageCatalogue
    private let slots: [String?]
    /// The context as the caller gave it (``preparing(context:tenderType:)`` prepares the schema for another).
    public let context: [String: String]
    private let now: @Sendable () -> Date

    package init(
        schema: CompiledSchema, context: [String: String], tenderType: String?, messages: MessageCatalogue = .english,
        now: @escaping @Sendable () -> Date
    ) throws(ValidatorError) {
        self.schema = schema
        self.messages = messages
        self.tenderType = tenderType
        self.context = context
        self.now = now
        self.slots = try schema.contextSlots(context, tenderType: tenderType)
        self.provisioning = CompiledSchema.isProvisioning(context)
        self.plan = EvaluationPlan(
            schema: schema, context: slots, tenderType: tenderType, messages: messages, provisioning: provisioning)
        // Every combination of derived values, when there are few: reports then share one dictionary's storage
        // instead of each building its own.
        var derived: [(slot: Int, values: [String])] = []
        for (slot, definition) in schema.contexts.enumerated() where slots[slot] == nil && !definition.derive.isEmpty {
            var values: [String] = []
            for rule in definition.derive where !values.contains(rule.value) { values.append(rule.value) }
            derived.append((slot, values))
        }
        let combinations = derived.reduce(1) { $0 * ($1.values.count + 1) }
        self.derivedSlots = derived
        if !derived.isEmpty && combinations <= 1_024 {
            self.derivedContexts = (0..<combinations).map { code in
                var effective = context
                var rest = code
                for (slot, values) in derived {
                    let choice = rest % (values.count + 1)
                    rest /= values.count + 1
                    if choice > 0 { effective[schema.contexts[slot].name] = values[choice - 1] }
                }
                return effective
            }
        } else {
            self.derivedContexts = []
        }
    }

    /// Whether the context says the request provisions a new account (`operation=provision`).
    package let provisioning: Bool
    /// What evaluations share; rebuilt by ``fingerprinting(with:)``, ``restricted(to:)`` and ``limitingErrors(to:)``.
    private var plan: EvaluationPlan
    /// The context slots the caller left empty that `derive` rules may fill, with the values they can take.
    private let derivedSlots: [(slot: Int, values: [String])]
    /// The context in force for each combination of derived values (see ``effectiveContext(_:)``); empty when
    /// there are none or too many to list.
    private let derivedContexts: [[String: String]]

    /// The context in force after an evaluation: the caller's, with the values derived from the request.
    private func effectiveContext(_ derived: [String?]) -> [String: String] {
        guard schema.hasDeriveRules else { return context }
        if !derivedContexts.isEmpty {
            var code = 0
            var scale = 1
            var listed = true
            for (slot, values) in derivedSlots {
                if let value = derived[slot] {
                    guard let choice = values.firstIndex(of: value) else {
                        listed = false
                        break
                    }
                    code += (choice + 1) * scale
                }
                scale *= values.count + 1
            }
            if listed { return derivedContexts[code] }
        }
        var effective = context
        for (slot, value) in derived.enumerated() where slots[slot] == nil {
            if let value { effective[schema.contexts[slot].name] = value }
        }
        return effective
    }

    /// Names rejected values in violations, when set.
    private var fingerprinter: (any ValueFingerprinter)?

    /// The values of other documents that fields' `existsIn` refer to, when given (``relating(_:)``).
    private var related = RelatedValues()

    /// This prepared schema checking each field's `existsIn` against the documents given: a value of the field
    /// that the other document does not hold at the referenced pointer is a violation with rule
    /// ``ViolationCode/existsIn``, at the value's pointer, line and column. Without a document, its references are not
    /// checked.
    ///
    /// ```swift
    /// let arts = try JSONDocument(bytes: artsBytes)
    /// let cards = try validator.prepare("gift-cards-response").relating(["card-arts-response": arts])
    /// cards.validate(json: giftCardsBytes)   // every /*/value/cardArtId must be a /*/cardArtId of arts
    /// ```
    ///
    /// The other document's values are read once, here; the document is not validated against its own schema.
    ///
    /// - Parameter documents: Other documents, by the schema id the references name.
    /// - Returns: The prepared schema.
    /// - Throws: ``ValidatorError`` with code `unknownDocument` for a schema id no reference of this schema names.
    public func relating(_ documents: [String: JSONDocument]) throws(ValidatorError) -> PreparedSchema {
        let references = schema.documentReferences
        for id in documents.keys.sorted() where !references.contains(where: { $0.schema == id }) {
            let named = Array(Set(references.map(\.schema))).sorted()
            throw ValidatorError(
                code: .unknownDocument,
                message: "'\(schema.id)' refers to no document of '\(id)'"
                    + (named.isEmpty ? " (it refers to none)" : " (it refers to \(named.joined(separator: ", ")))"))
        }
        var copy = self
        for reference in references {
            guard let document = documents[reference.schema] else { continue }
            let (found, failing) = RelatedValues.values(
                in: document, at: reference.tokens, condition: reference.condition)
            copy.related.byReference[reference.key] = found
            if reference.condition != nil { copy.related.failingCondition[reference.key] = failing }
        }
        return copy
    }

    /// This prepared schema with every violation on a string or number value carrying the value's fingerprint
    /// (never the value), for telling rejected values apart while debugging.
    ///
    /// - Parameter fingerprinter: A keyed fingerprinter, such as `DCEFingerprint.HMACFingerprinter`.
    /// - Returns: The prepared schema.
    public func fingerprinting(with fingerprinter: any ValueFingerprinter) -> PreparedSchema {
        var copy = self
        copy.fingerprinter = fingerprinter
        copy.plan = copy.makePlan()
        return copy
    }

    /// The most violations a report keeps (default ``PreparedSchema/defaultMaxErrors``); the rest are counted in
    /// ``ValidationReport/omittedErrors``.
    public private(set) var maxErrors = PreparedSchema.defaultMaxErrors

    /// How many violations a report keeps unless told otherwise: enough for any real payload, while a hostile one
    /// (an array of a million wrong values) cannot make a report, or the memory holding it, grow without bound.
    public static let defaultMaxErrors = EvaluationPlan.defaultMaxErrors

    /// This prepared schema keeping at most `maximum` violations per report (at least 1).
    ///
    /// Violations past the limit are counted, not built: a report then holds the first `maximum` in document order
    /// and ``ValidationReport/omittedErrors`` says how many more there were, however many that is.
    ///
    /// - Parameter maximum: The most violations a report keeps; values below 1 count as 1.
    /// - Returns: The prepared schema.
    public func limitingErrors(to maximum: Int) -> PreparedSchema {
        var copy = self
        copy.maxErrors = max(maximum, 1)
        copy.plan = copy.makePlan()
        return copy
    }

    /// The fields checked; `nil` checks them all.
    private var subset: FieldSubset?

    /// This prepared schema restricted to part of its fields, for validating one step of a form.
    ///
    /// Only the selected fields are checked (a selected field that is missing is still `required`); members
    /// outside them are neither checked nor reported as unknown. Conditions (`overrides`, `derive`) still read the
    /// whole payload, so a cross-field rule on a selected field runs whenever the fields it reads are present,
    /// whatever state the rest of the payload is in.
    ///
    /// - Parameter selection: Data groups, or fields by pointer.
    /// - Returns: The restricted schema.
    /// - Throws: ``ValidatorError`` with code `unknownField` when a group or pointer names nothing in the schema.
    public func restricted(to selection: FieldSelection) throws(ValidatorError) -> PreparedSchema {
        var copy = self
        copy.subset = try FieldSubset(selection, in: schema, context: context, tenderType: tenderType)
        copy.plan = copy.makePlan()
        return copy
    }

    /// This prepared schema for another context and tender type: the same schema, language and clock, and what was
    /// added to this one (other documents, a fingerprinter, a limit on errors, a restriction to part of the fields).
    ///
    /// ```swift
    /// let credit = try validator.prepare("payment-account", tenderType: "credit")
    /// let debit = try credit.preparing(context: credit.context, tenderType: "debit")
    /// ```
    ///
    /// - Parameters:
    ///   - context: Context values, such as `["region": "US"]`.
    ///   - tenderType: The tender type whose overrides apply.
    /// - Returns: The prepared schema.
    /// - Throws: ``ValidatorError`` as ``Validator/prepare(_:context:tenderType:messages:)`` throws for a context or
    ///   tender type the schema does not declare.
    public func preparing(context: [String: String], tenderType: String?) throws(ValidatorError) -> PreparedSchema {
        var copy = try PreparedSchema(
            schema: schema, context: context, tenderType: tenderType, messages: messages, now: now)
        copy.related = related
        copy.fingerprinter = fingerprinter
        copy.maxErrors = maxErrors
        if let subset {
            copy.subset = try FieldSubset(subset.selection, in: schema, context: context, tenderType: tenderType)
        }
        copy.plan = copy.makePlan()
        return copy
    }

    /// A plan for the whole schema with this context and tender type, every violation kept: what a form's draft is
    /// checked with (DCEForms' `inputFeedback(_:at:draft:)`), whatever subset, limit or fingerprinter this one has.
    package func wholePlan() -> EvaluationPlan {
        EvaluationPlan(
            schema: schema, context: slots, tenderType: tenderType, messages: messages, provisioning: provisioning,
            maxErrors: Int.max)
    }

    /// The context values by slot, as checked when the schema was prepared.
    private func makePlan() -> EvaluationPlan {
        EvaluationPlan(
            schema: schema, context: slots, tenderType: tenderType, messages: messages, provisioning: provisioning,
            subset: subset, fingerprinter: fingerprinter, maxErrors: maxErrors)
    }

    package var contextSlotValues: [String?] { slots }

    /// The strings another document given (``relating(_:)``) offers a field whose value must be found in it
    /// (`existsIn`), those of entries that meet the reference's `where`, sorted; `nil` without such a document.
    package func choices(for field: CompiledField) -> [String]? {
        guard let reference = field.existsIn, let values = related.byReference[reference.key] else { return nil }
        return values.filter { $0.hasPrefix("s") }.map { String($0.dropFirst()) }.sorted()
    }

    /// Validates a form's draft whole, every violation kept (the other documents' `existsIn` among them), and
    /// records the rules in force at every member the walk met (``EvaluationPlan/evaluateForm(_:month:)``).
    package func evaluateForm(_ document: JSONDocument) -> FormFindings {
        var found = wholePlan().evaluateForm(document, month: currentMonth)
        if !related.isEmpty {
            let references = schema.referenceViolations(
                document, related: related, messages: messages, positions: false)
            found.violations += references
            found.sources += references.map { _ in nil }
        }
        return found
    }

    /// A form's draft after one scalar value changed into another (`tokens`, its place), checked again where the
    /// change can change anything (``EvaluationPlan/recheckForm(_:changedAt:month:after:)``): the same findings as
    /// ``evaluateForm(_:)`` gives, or `nil` when they cannot be told without walking the draft whole. Not with other
    /// documents related (their `existsIn` check reads the draft whole).
    package func recheckForm(
        _ document: JSONDocument, changedAt tokens: [String], after last: consuming FormFindings
    ) -> FormFindings? {
        guard related.isEmpty else { return nil }
        return wholePlan().recheckForm(document, changedAt: tokens, month: currentMonth, after: last)
    }

    /// The context as the caller gave it.
    package var contextValues: [String: String] { context }

    /// What is sent for a payload, valid or not: absent fields with their `defaultValue`, and with the context
    /// `operation=provision` the fields marked `ignoreForProvisioning` left out.
    package func resolvedPayload(_ document: JSONDocument) -> [UInt8] {
        let resolver = RequestResolver(
            schema: schema, document: document, provisioning: provisioning, tenderType: tenderType,
            numericBooleans: schema.numericBooleans, boundTenderTypes: plan.tenderTypesInForce(in: document))
        return Array(resolver.resolve(schema.root).json.utf8)
    }

    /// The current month (`year × 12 + month − 1`, UTC) by the prepared clock.
    package var currentMonth: Int { Self.month(of: now()) }

    /// The month of a moment (`year × 12 + month − 1`, proleptic Gregorian, UTC), computed from the day number as
    /// in H. Hinnant's `civil_from_days`: asking Foundation's calendar cost a tenth of a card payload's validation.
    static func month(of date: Date) -> Int {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468  // days since 0000-03-01
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from 1 March
        let shifted = (5 * dayOfYear + 2) / 153  // 0 = March … 11 = February
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return year * 12 + month - 1
    }

    /// Validates a JSON payload; a payload that is not JSON gets a report with rule `json`.
    ///
    /// - Parameters:
    ///   - json: The payload as UTF-8 bytes.
    ///   - limits: The JSON reader's limits.
    /// - Returns: The report.
    public func validate(json: [UInt8], limits: JSONLimits = .default) -> ValidationReport {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: json, limits: limits)
        } catch {
            let violation: Violation
            switch error.code {
            case .tooDeep, .tooLarge, .stringTooLong:
                let rule = ViolationCode(rawValue: error.code.rawValue)
                violation = Violation(
                    path: "", key: "", rule: rule, message: messages.message(rule, .init(detail: error.message)),
                    position: error.position)
            default:
                violation = Violation(
                    path: "", key: "", rule: .json, message: messages.message(.json, .init(detail: error.message)),
                    position: error.position)
            }
            return ValidationReport(
                schema: schema.id, schemaVersion: schema.version, errors: [violation], context: context,
                tenderType: tenderType)
        }
        return validate(document)
    }

    /// Builds what is sent: absent fields get their `defaultValue`, and with the context `operation=provision` the
    /// fields marked `ignoreForProvisioning` are left out; then validates that payload.
    ///
    /// - Parameters:
    ///   - json: The payload as the app built it.
    ///   - limits: The JSON reader's limits.
    /// - Returns: The report and, when valid, the payload to send.
    public func resolve(json: [UInt8], limits: JSONLimits = .default) -> ResolvedRequest {
        guard let document = try? JSONDocument(bytes: json, limits: limits) else {
            return ResolvedRequest(report: validate(json: json, limits: limits), payload: nil)
        }
        let resolved = resolvedPayload(document)
        let report = validate(json: resolved, limits: limits)
        return ResolvedRequest(report: report, payload: report.valid ? resolved : nil)
    }

    /// Validates an update against the record it changes.
    ///
    /// The update is a JSON Merge Patch onto the stored record (RFC 7396, the update semantics of seed 003): a member
    /// the update leaves out keeps its stored value, `null` removes it, any other value replaces it; objects merge
    /// member by member, arrays are replaced whole. The record after the update is validated in full, so a required
    /// field the update does not mention is satisfied by the stored one. With `replacing`, the update is instead the
    /// whole new record: a member it leaves out is removed.
    ///
    /// Changing a field whose `updatesAllowed` is false is a violation (rule `updateNotAllowed`); every changed field
    /// whose `reverificationRequired` is true is listed in ``ValidationReport/reverificationRequired``; and a value
    /// that did not change is not failed by any rule (ratcheting), so a record stored under an older, looser schema
    /// stays updatable. A violation's line and column are those of the offending value in the update; for a value the
    /// update does not hold (a merge patch that leaves it out), the violation has only its pointer.
    ///
    /// - Parameters:
    ///   - json: The update.
    ///   - original: The record as stored.
    ///   - replacing: Whether the update is the whole new record rather than a merge patch.
    ///   - limits: The JSON reader's limits, for the update and the stored record alike.
    /// - Returns: The report.
    public func validate(
        json: [UInt8], original: [UInt8], replacing: Bool = false, limits: JSONLimits = .default
    ) -> ValidationReport {
        guard let update = try? JSONDocument(bytes: json, limits: limits) else {
            return validate(json: json, limits: limits)
        }
        guard let stored = try? JSONDocument(bytes: original, limits: limits) else {
            let report =
                replacing
                ? validate(update)
                : ValidationReport(
                    schema: schema.id, schemaVersion: schema.version, errors: [], context: context,
                    tenderType: tenderType)
            var result = ValidationReport(
                schema: report.schema, schemaVersion: report.schemaVersion,
                sorted: ViolationList(
                    Array(report.errors) + [
                        Violation(
                            path: "", key: "", rule: .json,
                            message: messages.message(.json, variant: "original", .init()))
                    ]), context: report.context, tenderType: report.tenderType, omittedErrors: report.omittedErrors)
            result.valid = false
            return result
        }
        let record: JSONDocument
        if replacing {
            record = update
        } else {
            let merged = Array(
                SchemaValue(document: stored, at: stored.root).merged(
                    with: SchemaValue(document: update, at: update.root)
                ).json.utf8)
            // Written compactly, the merged record is never larger than the two documents together.
            var recordLimits = limits
            recordLimits.maxDocumentBytes = limits.maxDocumentBytes * 2
            guard let document = try? JSONDocument(bytes: merged, limits: recordLimits) else {
                return validate(json: merged, limits: recordLimits)
            }
            record = document
        }
        let report = validate(record, positions: replacing)
        let check = UpdateCheck(record: record, original: stored, boundTenderTypes: plan.tenderTypesInForce(in: record))
        let (violations, reverify) = check.changes(in: schema, tenderType: tenderType, messages: messages)
        var kept = report.errors.filter { !check.isUnchanged(at: $0.path) } + violations
        if !replacing {
            for index in kept.indices { kept[index].locate(in: update) }
        }
        // Violations past the limit were never built, so they cannot be compared with the original: they stay
        // counted (and the report invalid), as do update violations past the limit.
        var result = ValidationReport(
            schema: report.schema, schemaVersion: report.schemaVersion, errors: Array(kept.prefix(maxErrors)),
            context: report.context,
            tenderType: report.tenderType, omittedErrors: report.omittedErrors + max(kept.count - maxErrors, 0))
        result.reverificationRequired = reverify
        return result
    }

    /// Validates a payload that has already been read.
    ///
    /// - Parameter document: The payload.
    /// - Returns: The report, with lines and columns.
    public func validate(_ document: JSONDocument) -> ValidationReport {
        validate(document, positions: true)
    }

    func validate(_ document: JSONDocument, positions: Bool) -> ValidationReport {
        let result = plan.evaluate(document, positions: positions, month: schema.usesDate ? currentMonth : 0) {
            effectiveContext($0)
        }
        guard !related.isEmpty else {
            return ValidationReport(
                schema: schema.id, schemaVersion: schema.version, sorted: result.violations, context: result.context,
                tenderType: tenderType, omittedErrors: result.omitted)
        }
        var errors = Array(result.violations)
        var omitted = result.omitted
        for violation in schema.referenceViolations(
            document, related: related, messages: messages, positions: positions)
        {
            if errors.count < maxErrors { errors.append(violation) } else { omitted += 1 }
        }
        return ValidationReport(
            schema: schema.id, schemaVersion: schema.version, errors: errors, context: result.context,
            tenderType: tenderType, omittedErrors: omitted)
    }

    /// Whether a payload breaks no rule: the verdict ``validate(json:limits:)`` would give, found without writing
    /// a report (the walk stops at the first violation, and no message, pointer or position is made). What a Submit
    /// button, or a gateway deciding whether to admit a request, asks.
    ///
    /// - Parameters:
    ///   - json: The payload as UTF-8 bytes.
    ///   - limits: The JSON reader's limits.
    /// - Returns: `true` when the payload is valid; `false` when it breaks a rule or is not JSON.
    public func isValid(json: [UInt8], limits: JSONLimits = .default) -> Bool {
        guard let document = try? JSONDocument(bytes: json, limits: limits) else { return false }
        return isValid(document)
    }

    /// Whether a payload that has already been read breaks no rule (see ``isValid(json:limits:)``).
    ///
    /// - Parameter document: The payload.
    /// - Returns: `true` when the payload is valid.
    public func isValid(_ document: JSONDocument) -> Bool {
        guard plan.holds(document, month: schema.usesDate ? currentMonth : 0) else { return false }
        // Values looked up in related documents (`existsIn`), when some were given.
        return related.isEmpty
            || schema.referenceViolations(document, related: related, messages: messages, positions: false).isEmpty
    }

    /// The report of a payload that could not be read (a missing file, a FIFO, a read error): invalid, with one
    /// violation of rule ``ViolationCode/unreadable`` whose message gives the reason in this schema's language.
    ///
    /// - Parameter reason: Why the payload could not be read, such as `no such file`; never any of its content.
    /// - Returns: The report.
    public func unreadableReport(reason: String) -> ValidationReport {
        let violation = Violation(
            path: "", key: "", rule: .unreadable, message: messages.message(.unreadable, .init(detail: reason)))
        return ValidationReport(
            schema: schema.id, schemaVersion: schema.version, errors: [violation], context: context,
            tenderType: tenderType)
    }
}
