import Foundation
import Testing

/// DCEPattern builds with strict memory safety (`.strictMemorySafety()` in Package.swift, and the test script's
/// build fails on any warning), so the compiler finds every unsafe use. This holds where those uses are: all in
/// `CompiledPattern.swift`, the one file that talks to PCRE2, each `unsafe` within ten lines of a `// SAFETY:` line
/// (or of the `@safe` / `@unsafe` type's reason) that says why it holds.
@Suite struct MemorySafetyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/DCEPattern")

    /// The lines of a file that use an unsafe construct (comments aside), by number.
    static func unsafeLines(_ lines: [Substring]) -> [Int] {
        lines.indices.filter { index in
            let code = lines[index].range(of: "//").map { lines[index][..<$0.lowerBound] } ?? lines[index]
            return code.contains(/\bunsafe\b|@safe\b|Unsafe[A-Z]|unsafeBitCast|Unmanaged/)
        }
    }

    @Test func everyUnsafeUseIsInTheFileThatTalksToPCRE2AndSaysWhy() throws {
        var outside: [String] = []
        var unexplained: [String] = []
        var uses = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).sorted()
        where name.hasSuffix(".swift") {
            let lines = try String(contentsOf: Self.sources.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for index in Self.unsafeLines(lines) {
                uses += 1
                if name != "CompiledPattern.swift" { outside.append("\(name):\(index + 1)") }
                let above = lines[max(0, index - 10)...index]
                if !above.contains(where: {
                    $0.contains("SAFETY:") || $0.contains("`@safe`") || $0.contains("`@unsafe`")
                }) {
                    unexplained.append("\(name):\(index + 1): \(lines[index].trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(uses > 20, "the scan finds the uses")
        #expect(outside.isEmpty, "unsafe outside CompiledPattern.swift: \(outside)")
        #expect(unexplained.isEmpty, "no SAFETY line within ten lines above:\n\(unexplained.joined(separator: "\n"))")
    }

    @Test func theScanSeesAnUnsafeUseAndSkipsComments() {
        let lines: [Substring] = [
            "let a = unsafe f()", "// unsafe in a comment", "let b = UnsafeBufferPointer<UInt8>(x)",
        ]
        #expect(Self.unsafeLines(lines) == [0, 2])
    }
}
