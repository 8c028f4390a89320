/// Where a finding is: its JSON Pointer, and its line and column.
extension Evaluation {
    /// The JSON Pointer of path tokens, as a string.
    mutating func pointer(_ tokens: Range<Int>) -> String {
        let start = work.text.count
        appendPointer(tokens)
        defer { work.text.removeSubrange(start...) }
        return String(decoding: work.text[start...], as: UTF8.self)
    }

    /// Appends the JSON Pointer of path tokens (a finding's) to ``EvaluationScratch/text``, escaping `~` and `/` in
    /// member names. (Into the scratch's own array, not an `inout` one: calling a method of `self` with a part of
    /// `self` as `inout` copied `self`, and with it the array, which then grew anew on every append.)
    mutating func appendPointer(_ tokens: Range<Int>) {
        for token in work.pathArena[tokens] {
            work.text.append(UInt8(ascii: "/"))
            switch token {
            case .member(let keyNode):
                if document.nodes[keyNode].flag {
                    work.text.append(contentsOf: JSONPointer.escape(document.string(at: keyNode)).utf8)
                    continue
                }
                let start = Int(document.nodes[keyNode].start)
                for offset in start..<(start + Int(document.nodes[keyNode].length)) {
                    let byte = document.bytes[offset]
                    if byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
                        work.text.append(UInt8(ascii: "~"))
                        work.text.append(byte == UInt8(ascii: "~") ? UInt8(ascii: "0") : UInt8(ascii: "1"))
                    } else {
                        work.text.append(byte)
                    }
                }
            case .missing(let field):
                work.text.append(contentsOf: tables.fieldObjects[field].pointerToken.utf8)
            case .index(let index):
                let start = work.text.count
                var rest = index
                repeat {
                    work.text.append(UInt8(ascii: "0") + UInt8(rest % 10))
                    rest /= 10
                } while rest > 0
                work.text[start...].reverse()
            }
        }
    }

    /// Whether text is one line of ASCII, where a byte's column is its offset + 1: a payload on one NDJSON line
    /// usually is.
    static func isSingleLineASCII(_ bytes: Span<UInt8>) -> Bool {
        for index in bytes.indices where bytes[index] >= 0x80 || bytes[index] == UInt8(ascii: "\n") { return false }
        return true
    }

    /// The line and column of a node, counted on from the last position found when it lies further on (the walk
    /// reports violations mostly in document order), else from the start.
    mutating func position(of node: JSONDocument.Index) -> SourcePosition {
        let offset = Int(document.nodes[node].start) - (document.nodes[node].kind == .string ? 1 : 0)
        let end = min(max(offset, 0), document.bytes.count)
        if singleLineASCII == nil {
            singleLineASCII = document.singleLineASCII ?? Self.isSingleLineASCII(document.bytes.span)
        }
        if singleLineASCII == true { return SourcePosition(line: 1, column: end + 1, offset: end) }
        located = SourcePosition.locate(
            offset: end, in: document.bytes.span, from: end >= located.offset ? located : nil)
        return located
    }
}
