import Foundation
import Testing

/// The engine and DCEPattern build with strict memory safety (`.strictMemorySafety()` in Package.swift, and the test
/// script's build fails on any warning), so the compiler finds every unsafe use. This holds where those uses are:
/// in DCEPattern, all in `CompiledPattern.swift`, the one file that talks to PCRE2; in the engine, all in `Lowered/`,
/// the folder of the types that manage memory by hand. Each `unsafe` is within ten lines of a `// SAFETY:` line (or
/// of the `@safe` / `@unsafe` type's reason) that says why it holds.
@Suite struct MemorySafetyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Each target built with strict memory safety, and where in it unsafe code may be (a path relative to the
    /// target's folder, or a folder of it ending in `/`).
    static let targets: [(target: String, place: String)] = [
        ("DCEPattern", "CompiledPattern.swift"), ("DCEEngine", "Lowered/"),
    ]

    /// The lines of a file that use an unsafe construct (comments aside), by number.
    static func unsafeLines(_ lines: [Substring]) -> [Int] {
        lines.indices.filter { index in
            let code = lines[index].range(of: "//").map { lines[index][..<$0.lowerBound] } ?? lines[index]
            return code.contains(/\bunsafe\b|@safe\b|Unsafe[A-Z]|unsafeBitCast|Unmanaged/)
        }
    }

    @Test(arguments: targets)
    func everyUnsafeUseIsInItsPlaceAndSaysWhy(target: String, place: String) throws {
        let folder = Self.sources.appendingPathComponent(target)
        var outside: [String] = []
        var unexplained: [String] = []
        var uses = 0
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        where path.hasSuffix(".swift") {
            let lines = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for index in Self.unsafeLines(lines) {
                uses += 1
                let inPlace = place.hasSuffix("/") ? path.hasPrefix(place) : path == place
                if !inPlace { outside.append("\(path):\(index + 1)") }
                let above = lines[max(0, index - 10)...index]
                if !above.contains(where: {
                    $0.contains("SAFETY:") || $0.contains("`@safe`") || $0.contains("`@unsafe`")
                }) {
                    unexplained.append("\(path):\(index + 1): \(lines[index].trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(uses > 20, "the scan finds the uses")
        #expect(outside.isEmpty, "unsafe outside \(target)/\(place): \(outside)")
        #expect(unexplained.isEmpty, "no SAFETY line within ten lines above:\n\(unexplained.joined(separator: "\n"))")
    }

    @Test func theScanSeesAnUnsafeUseAndSkipsComments() {
        let lines: [Substring] = [
            "let a = unsafe f()", "// unsafe in a comment", "let b = UnsafeBufferPointer<UInt8>(x)",
        ]
        #expect(Self.unsafeLines(lines) == [0, 2])
    }

    /// Package.swift builds each of these targets with strict memory safety: what makes the compiler find the uses.
    @Test func theTargetsBuildWithStrictMemorySafety() throws {
        let manifest = try String(
            contentsOf: Self.sources.deletingLastPathComponent().appendingPathComponent("Package.swift"),
            encoding: .utf8)
        for (target, _) in Self.targets {
            // The target's declaration: from `.target(name: "…"` to the parenthesis that closes it, on its own line.
            let start = try #require(
                manifest.firstRange(of: try Regex(#"\.target\(\s*name: ""# + target + #"","#)), "\(target) is a target")
            let rest = manifest[start.upperBound...]
            let declaration = rest[..<(rest.range(of: "\n        ),")?.lowerBound ?? rest.endIndex)]
            #expect(declaration.contains(".strictMemorySafety()"), "\(target) builds with .strictMemorySafety()")
        }
    }
}
