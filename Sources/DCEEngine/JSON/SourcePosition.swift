/// Where something is in a source text: a 1-based line and column (in Unicode code points) and the byte offset.
public struct SourcePosition: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, counted in Unicode code points from the start of the line.
    public var column: Int
    /// The 0-based byte offset from the start of the text.
    public var offset: Int

    /// Creates a position.
    ///
    /// - Parameters:
    ///   - line: The 1-based line.
    ///   - column: The 1-based column in code points.
    ///   - offset: The 0-based byte offset.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`, as compilers print positions.
    public var description: String { "\(line):\(column)" }

    /// Orders positions by byte offset.
    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }

    /// The position of a byte offset in UTF-8 text.
    ///
    /// - Parameters:
    ///   - offset: A byte offset, clamped to the text.
    ///   - bytes: The text.
    ///   - start: A position known to lie at or before `offset`, to count on from; the start of the text if `nil`.
    /// - Returns: The line and column of that offset.
    static func locate(offset: Int, in bytes: Span<UInt8>, from start: SourcePosition? = nil)
        -> SourcePosition
    {
        let end = min(max(offset, 0), bytes.count)
        var line = start?.line ?? 1
        var column = start?.column ?? 1
        var index = start?.offset ?? 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1  // count lead bytes only: one per code point
            }
            index += 1
        }
        return SourcePosition(line: line, column: column, offset: end)
    }

    /// The position of a byte offset in UTF-8 text held in an array.
    static func locate(offset: Int, in bytes: [UInt8]) -> SourcePosition {
        bytes.withSpan { locate(offset: offset, in: $0) }
    }

    /// The position of a byte offset in UTF-8 text held in a contiguous array.
    static func locate(offset: Int, in bytes: ContiguousArray<UInt8>) -> SourcePosition {
        locate(offset: offset, in: bytes.span)
    }
}

/// The positions of many offsets in one text: where each line starts is found once, then a position is a binary
/// search and a count within its line. Locating every node of a schema file from the start of the text each time
/// grew with the file's size times its nodes (a twentieth of a small `dce-validate` run went there).
struct LineIndex {
    private let bytes: [UInt8]
    /// The byte offset at which each line starts; the first is 0.
    private let starts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.starts = starts
    }

    /// The position of a byte offset, clamped to the text: the same as ``SourcePosition/locate(offset:in:)``.
    func position(of offset: Int) -> SourcePosition {
        let end = min(max(offset, 0), bytes.count)
        var low = 0
        var high = starts.count - 1
        while low < high {  // the last line starting at or before `end`
            let middle = (low + high + 1) / 2
            if starts[middle] <= end { low = middle } else { high = middle - 1 }
        }
        var column = 1
        for index in starts[low]..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }  // lead bytes: code points
        return SourcePosition(line: low + 1, column: column, offset: end)
    }
}
