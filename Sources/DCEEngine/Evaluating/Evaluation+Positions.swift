/// Where a finding is: its JSON Pointer, written straight into a string's storage, and its line and column.
extension Evaluation {
    /// The JSON Pointer of a finding's path tokens, written straight into the string's storage: one allocation
    /// (none up to 15 bytes) instead of a string per token.
    func pointer(_ tokens: Range<Int>) -> String {
        let path = work.pathArena[tokens]
        var escapedKeys: [String] = []  // member names with JSON escapes, decoded and escaped (rare)
        var length = 0
        for token in path {
            length += 1
            switch token {
            case .member(let keyNode):
                let node = nodes[keyNode]
                if node.flag {
                    let key = JSONPointer.escape(document.string(at: keyNode))
                    escapedKeys.append(key)
                    length += key.utf8.count
                } else {
                    length += Int(node.length) + Self.escapes(in: rawText(of: keyNode))
                }
            case .missing(let field): length += tables.fieldObjects[field].pointerToken.utf8.count
            case .index(let index): length += Self.digits(index)
            }
        }
        var escapedKey = 0
        return String(unsafeUninitializedCapacity: length) { buffer in
            var at = 0
            for token in path {
                buffer[at] = UInt8(ascii: "/")
                at += 1
                switch token {
                case .member(let keyNode):
                    if nodes[keyNode].flag {
                        for byte in escapedKeys[escapedKey].utf8 {
                            buffer[at] = byte
                            at += 1
                        }
                        escapedKey += 1
                        continue
                    }
                    for byte in rawText(of: keyNode) {
                        if byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
                            buffer[at] = UInt8(ascii: "~")
                            buffer[at + 1] = byte == UInt8(ascii: "~") ? UInt8(ascii: "0") : UInt8(ascii: "1")
                            at += 2
                        } else {
                            buffer[at] = byte
                            at += 1
                        }
                    }
                case .missing(let field):
                    for byte in tables.fieldObjects[field].pointerToken.utf8 {
                        buffer[at] = byte
                        at += 1
                    }
                case .index(let index):
                    var rest = index
                    let end = at + Self.digits(index)
                    at = end
                    repeat {
                        at -= 1
                        buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                        rest /= 10
                    } while rest > 0
                    at = end
                }
            }
            return at
        }
    }

    /// The bytes of a string node as they stand in the document: its text, when it has no escapes.
    @inline(__always)
    func rawText(of node: JSONDocument.Index) -> UnsafeBufferPointer<UInt8> {
        let start = Int(nodes[node].start)
        return UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(nodes[node].length))])
    }

    /// How many bytes of a name a JSON Pointer escapes (`~` and `/` each become two).
    static func escapes(in name: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in name where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { count += 1 }
        return count
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

    /// The number of decimal digits of a non-negative number.
    static func digits(_ number: Int) -> Int {
        var count = 1
        var rest = number / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
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
