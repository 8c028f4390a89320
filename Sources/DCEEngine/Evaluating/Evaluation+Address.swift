internal import DCEPattern

/// What the country of an address object (`postalAddress`) asks of its members, checked after the members' own rules.
extension Evaluation {
    /// Checks the members of an address object (`postalAddress`), then what the country it names asks of them: the
    /// parts it requires, its postal-code pattern, its subdivisions, and the postal-code prefix of the subdivision
    /// named. A member that broke its own rules is not judged again by the country's, so that each gets one message.
    @inline(never)
    mutating func checkAddress(
        _ object: JSONDocument.Index, of field: Int, found: UnsafeMutableBufferPointer<JSONDocument.Index>
    ) {
        let children = tables.fields[field].children
        // Bit i set when member i broke none of its own rules.
        var clean: UInt64 = 0
        for offset in children.indices {
            let member = offset - children.lowerBound
            let before = work.findings.count + omitted
            checkMember(tables.children[offset], value: found[member], in: object)
            if member < 64 && work.findings.count + omitted == before { clean |= 1 << UInt64(member) }
        }
        guard let address = tables.fieldObjects[field].address else { return }
        let countryValue = found[address.country]
        func isClean(_ member: Int) -> Bool { member < 64 && clean & (1 << UInt64(member)) != 0 }
        guard countryValue >= 0, isClean(address.country), nodes[countryValue].kind == .string,
            let countryIndex = document.withStringBytes(at: countryValue, { reference.addresses.index(of: $0) })
        else { return }  // no country, or one its own rules refuse or the data does not know: nothing to follow
        let country = reference.addresses.countries[countryIndex]
        // Which subdivision the state names, when the country has them: its postal-code prefix applies even where the
        // country's addresses do not show the state (Andorra's parishes), as in the data's own validator.
        var subdivision: Int?
        let stateMember = address.member(.state)
        let stateValue = stateMember >= 0 ? found[stateMember] : -1
        if stateValue >= 0, !country.subdivisions.isEmpty, nodes[stateValue].kind == .string,
            nodes[stateValue].length > 0
        {
            subdivision = document.withStringBytes(at: stateValue) { country.subdivision(named: $0) }
            if subdivision == nil && country.uses(.state) && isClean(stateMember) {
                report(
                    .enum, member: stateMember, of: field, in: object, found: found,
                    detail: Finding.address(country: countryIndex, subdivision: -1))
            }
        }
        for part in AddressFormats.Part.allCases {
            let member = address.member(part)
            guard member >= 0, country.uses(part), isClean(member) else { continue }
            let value = found[member]
            let isEmpty =
                value < 0 || nodes[value].kind == .null || (nodes[value].kind == .string && nodes[value].length == 0)
            if isEmpty {
                if country.requires(part) {
                    report(
                        .required, member: member, of: field, in: object, found: found,
                        detail: Finding.address(country: countryIndex, subdivision: -1))
                }
                continue
            }
            guard part == .postalCode, nodes[value].kind == .string else { continue }
            let scratch = matchScratch()
            let subdivisionPrefix = subdivision.flatMap { country.subdivisions[$0].prefix }
            let verdict: (whole: Bool?, prefix: Bool?) = document.withStringBytes(at: value) { bytes in
                (
                    country.postalCode?.matches(bytes, scratch: scratch),
                    subdivisionPrefix?.matches(bytes, scratch: scratch)
                )
            }
            if verdict.whole == false {
                report(
                    .format, member: member, of: field, in: object, found: found,
                    detail: Finding.address(country: countryIndex, subdivision: -1))
            } else if verdict.prefix == false, let subdivision {
                report(
                    .format, member: member, of: field, in: object, found: found,
                    detail: Finding.address(country: countryIndex, subdivision: subdivision))
            }
        }
    }

    /// Records an address finding on a member of an address object, present or missing.
    mutating func report(
        _ rule: ViolationCode, member: Int, of field: Int, in object: JSONDocument.Index,
        found: UnsafeMutableBufferPointer<JSONDocument.Index>,
        detail: Int
    ) {
        let child = tables.children[tables.fields[field].children.lowerBound + member]
        let value = found[member]
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
