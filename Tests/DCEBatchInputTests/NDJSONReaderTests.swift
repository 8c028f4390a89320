import DCEBatchInput
import Testing

/// The NDJSON reader on streams in memory: line numbers, CRLF, blank lines, a missing final line break, and lines
/// over the limit.
@Suite struct NDJSONReaderTests {
    /// Every record the reader hands out, as (line, text); an oversized record as (line, "<n bytes>").
    private func records(_ text: String, maxLineBytes: Int = 1 << 20) -> [(Int, String)] {
        var reader = NDJSONReader(name: "s", bytes: Array(text.utf8), maxLineBytes: maxLineBytes)
        var records: [(Int, String)] = []
        while let item = reader.next() {
            switch item {
            case .block(let file, let firstLine, let bytes):
                #expect(file == "s")
                NDJSONReader.forEachRecord(in: bytes, firstLine: firstLine) {
                    records.append(($0, String(decoding: $1, as: UTF8.self)))
                }
            case .record(_, let line, let bytes): records.append((line, "<\(bytes.count) bytes>"))
            case .file, .unreadable: Issue.record("unexpected \(item)")
            }
        }
        return records
    }

    private func expect(
        _ actual: [(Int, String)], _ expected: [(Int, String)], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(actual.map(\.0) == expected.map(\.0), sourceLocation: sourceLocation)
        #expect(actual.map(\.1) == expected.map(\.1), sourceLocation: sourceLocation)
    }

    @Test func linesAreNumberedFromOneAndBlankLinesSkipped() {
        expect(records("{\"a\":1}\n\n  \t\n{\"b\":2}\n"), [(1, "{\"a\":1}"), (4, "{\"b\":2}")])
    }

    @Test func crlfLineBreaksAreNotPartOfTheRecord() {
        expect(records("{}\r\n[1]\r\n\r\n2\r\n"), [(1, "{}"), (2, "[1]"), (4, "2")])
    }

    @Test func aLastLineWithoutALineBreakIsRead() {
        expect(records("1\n2"), [(1, "1"), (2, "2")])
        expect(records("only"), [(1, "only")])
        expect(records(""), [])
    }

    /// Blocks of 1 MiB end inside the long lines: each is handed out as its first `maxLineBytes + 1` bytes and the
    /// rest is skipped, however long; the lines after it keep their numbers.
    @Test func anUnfinishedLinePastTheLimitIsHandedOutCutAndTheRestSkipped() {
        let long = String(repeating: "x", count: 3 << 20)
        expect(
            records("1\n\(long)\n3\n\(long)", maxLineBytes: 10),
            [(1, "1"), (2, "<11 bytes>"), (3, "3"), (4, "<11 bytes>")])
        expect(records(long + "\r\n\n5\r\n", maxLineBytes: 10), [(1, "<11 bytes>"), (3, "5")])
    }

    /// A line that ends within the block read is handed out whole, however long: the block bounds the memory, and
    /// the JSON reader rejects the record by its size.
    @Test func aCompleteLineWithinABlockIsHandedOutWhole() {
        let long = String(repeating: "y", count: 50)
        expect(records("1\n\(long)\n3", maxLineBytes: 10), [(1, "1"), (2, long), (3, "3")])
        expect(records(long, maxLineBytes: 10), [(1, "<11 bytes>")])
    }

    /// More than one block of 1 MiB (about 1.6 MB), with a line across each block boundary: every line once,
    /// numbered in order.
    @Test func manyLinesAcrossBlocksKeepTheirNumbers() {
        let lines = (1...30_000).map { "{\"n\":\($0),\"pad\":\"\(String(repeating: "p", count: 40))\"}" }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 3 << 19)
        let read = records(text)
        #expect(read.count == 30_000)
        #expect(read.map(\.0) == Array(1...30_000))
        #expect(read.map(\.1) == lines)
    }

    @Test func aLineOfAMillionBytesIsOversizedAtTheDefaultLimitOnlyPastIt() {
        var reader = NDJSONReader(
            name: "s", bytes: Array(repeating: UInt8(ascii: "z"), count: (1 << 20) + 5) + [0x0A, 0x31])
        var kinds: [String] = []
        while let item = reader.next() {
            if case .block(_, let firstLine, let bytes) = item {
                NDJSONReader.forEachRecord(in: bytes, firstLine: firstLine) { line, record in
                    kinds.append("\(line):\(record.count)")
                }
            }
        }
        #expect(kinds == ["1:1048581", "2:1"])
    }
}
