internal import DCEPattern

/// The rules that judge an object's members together (``ObjectRuleKind``, such as `postalAddress`), asked after the
/// members' own rules.
extension Evaluation {
    /// Checks the members of an object, then asks each of its object rules what they say of the members together. A
    /// member that broke its own rules is not judged again by an object rule, so that each gets one message.
    @inline(never)
    mutating func checkObjectRules(_ object: JSONDocument.Index, of field: Int, found: inout MutableSpan<Int>) {
        let children = tables.fields[field].children
        // Bit i set when member i broke none of its own rules.
        var clean: UInt64 = 0
        for offset in children.indices {
            if decided { return }
            let member = offset - children.lowerBound
            let before = work.findings.count + omitted
            checkMember(tables.children[offset], value: found[member], in: object)
            if member < 64 && work.findings.count + omitted == before { clean |= 1 << UInt64(member) }
        }
        // The members' values, copied into the working storage: a rule reads them from a stored value, which cannot
        // hold this call's slots.
        work.objectMembers.removeAll(keepingCapacity: true)
        for member in 0..<children.count { work.objectMembers.append(found[member]) }
        let members = ObjectRuleMembers(
            document: document, found: work.objectMembers[...], clean: clean, scratch: matchScratch())
        var findings: [ObjectRuleFinding] = []
        for (place, rule) in tables.fieldObjects[field].objectRules.enumerated() {
            findings.removeAll(keepingCapacity: true)
            rule.evaluate(members, reference: reference, into: &findings)
            for finding in findings {
                report(
                    finding.rule, member: finding.member, of: field, in: object, value: found[finding.member],
                    detail: Finding.objectRule(work.ruleFindings.count))
                work.ruleFindings.append(
                    ObjectRuleHit(field: field, rule: place, member: finding.member, detail: finding.detail))
            }
        }
    }

    /// Records an object rule's finding on a member of the object, present or missing.
    private mutating func report(
        _ rule: ViolationCode, member: Int, of field: Int, in object: JSONDocument.Index,
        value: JSONDocument.Index, detail: Int
    ) {
        let child = tables.children[tables.fields[field].children.lowerBound + member]
        let attributes = attributes(tables.fields[child].base)
        if value >= 0 {
            work.path.append(.member(value - 1))
            find(rule, field: child, at: value, attributes, detail: detail)
        } else {
            work.path.append(.missing(child))
            find(rule, field: child, at: object, attributes, detail: detail)
        }
        work.path.removeLast()
    }
}
