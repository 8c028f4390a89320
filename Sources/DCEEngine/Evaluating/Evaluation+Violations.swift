internal import DCEPattern

/// Findings recorded while walking, and kept as the report's violations once the walk is done (``FoundViolations``),
/// their messages written when they are read (``ViolationWriter``).
extension Evaluation {
    // MARK: - Findings

    /// Records a violation of `rule` by `field` at `node` (the path stack already ends with its token); its text is
    /// written when the walk is done. Past ``maxErrors`` it is only counted.
    mutating func find(
        _ rule: ViolationCode, field: Int, at node: JSONDocument.Index, _ attributes: Attributes?, detail: Int = 0
    ) {
        assert(rule.ordinal >= 0, "a finding's rule is one of the engine's own codes")
        guard work.findings.count < maxErrors else {
            omitted += 1
            return
        }
        var set = Finding.noAttributes
        if let attributes {
            if attributes.object >= 0 {
                set = attributes.object
            } else {
                // Computed for this value only: kept now, while the conditions that chose it read the same containers.
                computedSets.append(computedAttributes(of: field))
                set = -computedSets.count
            }
        }
        let start = work.pathArena.count
        work.pathArena.append(contentsOf: work.path)
        work.findings.append(
            Finding(
                ruleOrdinal: rule.ordinal, field: field, node: node, attributes: set, detail: detail,
                path: start..<work.pathArena.count))
    }

    // MARK: - Reporting

    /// Turns the walk's findings into the report's violations, as data (``FoundViolations``): each finding's JSON
    /// Pointer and key written as bytes into one text, what its message will say of the value measured now (while
    /// the document is at hand), its line and column, its fingerprint; sorted by pointer and then rule as a report
    /// is, or in the order found. No message is written: that is done when a violation is read. `nil` when nothing
    /// was found.
    mutating func recordViolations(sorted: Bool = true) -> FoundViolations? {
        guard !work.findings.isEmpty else { return nil }
        var fingerprints: [String] = []
        work.records.reserveCapacity(work.findings.count)
        for index in work.findings.indices {
            let finding = work.findings[index]
            let rule = finding.rule
            let node = finding.node
            let pointerStart = work.text.count
            appendPointer(finding.path)
            let pointer = pointerStart..<work.text.count
            var key = pointer.upperBound..<pointer.upperBound
            if finding.detail == Finding.unknownMember {
                document.withStringBytes(at: node) { bytes in
                    for index in bytes.indices { work.text.append(bytes[index]) }
                }
                key = pointer.upperBound..<work.text.count
            }
            var record = FoundViolation(
                ruleOrdinal: finding.ruleOrdinal, field: finding.field, attributes: finding.attributes,
                detail: finding.detail, pointerStart: pointer.lowerBound, pointerEnd: pointer.upperBound,
                keyStart: key.lowerBound, keyEnd: key.upperBound, line: 0, column: 0, measure: 0, brand: -1,
                fingerprint: -1, objectField: -1, objectRule: -1, objectMember: -1)
            if let place = Finding.objectRule(finding.detail) {
                let found = work.ruleFindings[place]
                record.objectField = found.field
                record.objectRule = found.rule
                record.objectMember = found.member
                record.detail = found.detail
            } else {
                record.measure = measure(for: rule, of: finding.field, at: node)
                if rule == .format, document.nodes[node].kind == .string, asksForCardNumber(finding) {
                    record.brand = cardBrand(at: node)
                }
            }
            if positions {
                let position = position(of: node)
                record.line = position.line
                record.column = position.column
            }
            if let fingerprinter = plan.fingerprinter, rule != .unknownField, rule != .duplicateKey, rule != .required {
                var fingerprint: String?
                switch document.kind(of: node) {
                case .string:
                    fingerprint = document.withStringBytes(at: node) { fingerprinter.fingerprint($0) }
                case .number:
                    fingerprint = document.withRawText(at: node) { fingerprinter.fingerprint($0) }
                default: break
                }
                if let fingerprint {
                    record.fingerprint = fingerprints.count
                    fingerprints.append(fingerprint)
                }
            }
            work.records.append(record)
        }
        // The order of a report: by JSON Pointer, then rule (as strings compare them; see `ViolationList`).
        let text = work.text
        if sorted { work.records.sort { ViolationList.precedes($0, $1, in: text) } }
        return text.withSpan { text in
            work.records.withSpan { records in
                FoundViolations.make(
                    plan: plan, records: records, text: text, computedSets: computedSets, fingerprints: fingerprints)
            }
        }
    }

    /// What a finding's message will say of its value, measured while the document is at hand: the kind of value for
    /// `type`, the number of items for `minItems` and `maxItems`, else the length of a string or number in code
    /// points (-1 for a sensitive field: a PIN's length is a clue to it).
    func measure(for rule: ViolationCode, of field: Int, at node: JSONDocument.Index) -> Int {
        switch rule {
        case .type: return Int(document.nodes[node].kind.rawValue)
        case .minItems, .maxItems: return document.count(of: node)
        case .forbidden, .required, .null, .minimum, .maximum, .enum, .duplicateKey, .unknownField: return 0
        default:
            guard !tables.fields[field].sensitive else { return -1 }
            switch document.nodes[node].kind {
            case .string:
                return document.withStringBytes(at: node) { Self.codePoints(in: $0) }
            case .number: return document.withRawText(at: node) { Self.codePoints(in: $0) }
            default: return 0
            }
        }
    }

    /// Whether a failed `format` check asked for a card number (its message then names the brand the digits show).
    func asksForCardNumber(_ finding: Finding) -> Bool {
        guard let set = tables.attributeSet(finding.attributes, computed: computedSets) else { return false }
        return tables.checkedFormats(detail: finding.detail, field: finding.field, set: set).contains {
            $0.isCardNumber
        }
    }

    /// The card brand a string's digits show, as its place in the reference data; -1 when none.
    func cardBrand(at node: JSONDocument.Index) -> Int {
        guard case .brand(let index) = document.withStringBytes(at: node, { reference.cardBrands.detect(digitsOf: $0) })
        else { return -1 }
        return index
    }

    /// The violations the walk found in the order found and what each message is written from, for a form's draft: the
    /// one at the same place of `reused` is kept where it is the same violation, its message not written again.
    mutating func formViolations(reusing reused: ArraySlice<Violation>, sources: ArraySlice<MessageSource?>)
        -> (violations: [Violation], sources: [MessageSource?])
    {
        guard let found = recordViolations(sorted: false) else { return ([], []) }
        return found.withWriter { writer in
            var violations: [Violation] = []
            var written: [MessageSource?] = []
            violations.reserveCapacity(found.count)
            written.reserveCapacity(found.count)
            for index in 0..<found.count {
                let record = found.record(at: index)
                let source = MessageSource(record)
                let old = reused.startIndex + index
                if let source, old < reused.endIndex, sources[old] == source,
                    writer.string(record.pointer) == reused[old].path
                {
                    violations.append(reused[old])
                } else {
                    violations.append(writer.violation(at: index))
                }
                written.append(source)
            }
            return (violations, written)
        }
    }

    /// The violations the walk found in the order found, each written out (a form's draft and a default value are
    /// checked with them).
    mutating func writtenViolations() -> [Violation] {
        guard let found = recordViolations(sorted: false) else { return [] }
        return Array(ViolationList(found: found))
    }
}
