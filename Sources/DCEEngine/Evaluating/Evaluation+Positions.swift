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
                if nodes[keyNode].flag {
                    work.text.append(contentsOf: JSONPointer.escape(document.string(at: keyNode)).utf8)
                    continue
                }
                for byte in rawText(of: keyNode) {
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

    /// The bytes of a string node as they stand in the document: its text, when it has no escapes.
    @inline(__always)
    func rawText(of node: JSONDocument.Index) -> UnsafeBufferPointer<UInt8> {
        let start = Int(nodes[node].start)
        return UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(nodes[node].length))])
    }

    /// Whether text is one line of ASCII, where a byte's column is its offset + 1: a payload on one NDJSON line
    /// usually is. Eight bytes at a time.
    static func isSingleLineASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let newlines = word ^ 0x0A0A_0A0A_0A0A_0A0A  // a zero byte where the text has a newline
            let zeroByte = (newlines &- 0x0101_0101_0101_0101) & ~newlines & 0x8080_8080_8080_8080
            if word & 0x8080_8080_8080_8080 != 0 || zeroByte != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 || bytes[index] == UInt8(ascii: "\n") { return false }
            index += 1
        }
        return true
    }

    /// The line and column of a node, counted on from the last position found when it lies further on (the walk
    /// reports violations mostly in document order), else from the start.
    mutating func position(of node: JSONDocument.Index) -> SourcePosition {
        let offset = Int(nodes[node].start) - (nodes[node].kind == .string ? 1 : 0)
        let end = min(max(offset, 0), bytes.count)
        if singleLineASCII == nil { singleLineASCII = Self.isSingleLineASCII(bytes) }
        if singleLineASCII == true { return SourcePosition(line: 1, column: end + 1, offset: end) }
        located = SourcePosition.locate(offset: end, in: bytes, from: end >= located.offset ? located : nil)
        return located
    }
}
