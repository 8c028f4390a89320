internal import DCEPattern

/// The verdict on one field's input while a person is still typing it.
public enum InputVerdict: Hashable, Sendable {
    /// The input is valid as it is.
    case valid
    /// The input is not valid yet but can still become valid with more characters (`41` for a card number).
    case incomplete
    /// No continuation can make the input valid (a letter in a PIN); the rule it breaks.
    case invalid(ViolationCode)
}

extension Rules {
    /// What these rules say of a value still being typed (DCEForms' `checkInput(_:at:given:)`): valid as it is,
    /// incomplete (more characters can still make it valid), or invalid with the first rule no continuation can
    /// satisfy. Each rule kind's meaning for partial input is here, beside the rules; presence (`forbidden`) and the
    /// overrides in force are the caller's.
    ///
    /// - Parameters:
    ///   - text: The characters typed so far.
    ///   - dataType: The field's type.
    ///   - patterns: The schema's compiled regexes, by ``Validation/patternKey``.
    ///   - month: The current month, for formats that depend on the date.
    package func judge(
        partial text: String, as dataType: DataType, patterns: [String: CompiledPattern], month: Int,
        reference: ReferenceData
    ) -> InputVerdict {
        var verdicts: [InputVerdict] = []
        switch dataType {
        case .boolean:
            verdicts.append(
                text == "true" || text == "false"
                    ? .valid : ("true".hasPrefix(text) || "false".hasPrefix(text)) ? .incomplete : .invalid(.type))
        case .integer, .number:
            verdicts.append(numberVerdict(text, integer: dataType == .integer))
        case .object, .array:
            verdicts.append(.invalid(.type))
        case .string, .date, .dateTime:
            let length = text.unicodeScalars.count
            verdicts.append(effectiveLengths.judge(partialLength: length))
            if let options { verdicts.append(options.judge(partial: text)) }
            if let implied = dataType.impliedFormat {
                verdicts.append(implied.judge(partial: text, month: month, reference: reference))
            }
            if !formatList.isEmpty {
                let each = formatList.map { $0.judge(partial: text, month: month, reference: reference) }
                verdicts.append(
                    each.contains(.valid) ? .valid : each.contains(.incomplete) ? .incomplete : .invalid(.format))
            }
            verdicts += validationList.map { $0.judgeRegex(partial: text, patterns: patterns) }
        }
        if let invalid = verdicts.first(where: { if case .invalid = $0 { return true } else { return false } }) {
            return invalid
        }
        return verdicts.contains(.incomplete) ? .incomplete : .valid
    }

    private func numberVerdict(_ text: String, integer: Bool) -> InputVerdict {
        if text.isEmpty || text == "-" { return .incomplete }
        guard let document = try? JSONDocument(bytes: Array(text.utf8)), document.kind(of: document.root) == .number
        else {
            // "1." and "1e" can still become numbers; anything else cannot.
            let prefix =
                text.last == "." || text.last == "e" || text.last == "E" || text.hasSuffix("e-") || text.hasSuffix("e+")
            return prefix && !integer
                && (try? JSONDocument(
                    bytes: Array(text.dropLast(text.hasSuffix("e-") || text.hasSuffix("e+") ? 2 : 1).utf8))) != nil
                ? .incomplete : .invalid(.type)
        }
        let number = DecimalNumber(lexeme: document.numberLexeme(at: document.root))
        if integer && !number.isIntegral { return .invalid(.type) }
        let range = valueRange.judge(partial: number)
        if range != .valid { return range }
        if let options, !options.accepts(number) { return .invalid(.enum) }
        return .valid
    }
}

extension Format {
    /// Whether text has this format, could still get it by typing more, or cannot.
    func judge(partial text: String, month: Int, reference: ReferenceData) -> InputVerdict {
        if accepts(text, month: month, reference: reference) { return .valid }
        return couldBecomeValid(text, reference: reference) ? .incomplete : .invalid(.format)
    }
}

extension InputVerdict {
    /// Both verdicts together: the first invalid one, else incomplete if either is, else valid.
    package func and(_ other: InputVerdict?) -> InputVerdict {
        guard let other else { return self }
        if case .invalid = self { return self }
        if case .invalid = other { return other }
        return self == .incomplete || other == .incomplete ? .incomplete : .valid
    }
}
