import Foundation
import Testing

/// The engine's layers point one way: JSON ← Schema, Rules and Reference ← Loading ← Compiling ← Evaluating ← the
/// API (the folder's root, Sensitive). A source file may name the types of its own layer and of the layers below it,
/// never a type declared in a layer above it (comments aside). The engine's public types are the ones listed in the
/// README. What has moved to a target of its own (`DCEForms`, `DCECompatibility`, `DCEExport`, `DCEReports`) the
/// compiler holds instead: the engine does not depend on them, so it cannot name them.
@Suite struct LayeringTests {
    /// Each folder of `Sources/DCEEngine` and its layer; the files at the root are the API. `Lowered` holds the types
    /// that manage memory by hand, generic or self-contained, beneath everything.
    static let layers: [String: Int] = [
        "Lowered": 0, "JSON": 0, "Schema": 1, "Rules": 1, "Reference": 1, "Loading": 2, "Compiling": 3, "Evaluating": 4,
        "Sensitive": 6, "": 6,
    ]

    struct SourceFile {
        var path: String
        var folder: String
        var identifiers: Set<String>
        var declared: [String]
        /// The top-level types declared `public`.
        var published: [String]
    }

    /// The engine's public types, as the README lists them: a new one is a decision, made here and there.
    static let publicTypes: Set<String> = [
        "Validator", "PreparedSchema", "CompiledSchema", "SchemaKind", "ValidatableRequest", "ValidationReport",
        "Violation", "ViolationList", "ViolationCode", "MessageCatalogue", "SchemaError", "SchemaProblem",
        "SchemaLocation",
        "ValidatorError", "SchemaSource", "JSONLimits", "JSONDocument", "JSONReadError", "SourcePosition",
        "SchemaValue",
        "DecimalNumber", "DataType", "FieldSelection", "ResolvedRequest", "InputVerdict", "SensitiveString",
        "Masking", "ValueFingerprinter", "Redactor", "ReferenceData", "CodeList", "CardBrands", "AddressFormats",
        "DocumentWriter", "DocumentWritable",
    ]

    static func engineSources() throws -> [SourceFile] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/DCEEngine")
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path)
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            }
            let folder = path.contains("/") ? String(path.prefix { $0 != "/" }) : ""
            return SourceFile(
                path: path, folder: folder, identifiers: Set(code.flatMap(identifiers(in:))),
                declared: code.compactMap(topLevelDeclaration(in:)),
                published: code.filter { $0.hasPrefix("public ") }.compactMap(topLevelDeclaration(in:)))
        }
    }

    /// The words of a line that could name a type.
    static func identifiers(in line: Substring) -> [String] {
        line.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
    }

    /// The type a line declares at the top level of its file (`public struct Violation: …` → `Violation`).
    static func topLevelDeclaration(in line: Substring) -> String? {
        guard let first = line.first, !first.isWhitespace else { return nil }
        let modifiers: Set<Substring> = [
            "public", "package", "internal", "private", "fileprivate", "final", "indirect",
        ]
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        var words = line.split(separator: " ")[...]
        while let word = words.first, modifiers.contains(word) || word.hasPrefix("@") { words.removeFirst() }
        guard let kind = words.first, kinds.contains(kind), words.count > 1 else { return nil }
        let name = words[words.startIndex + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }

    @Test func everyFolderHasALayer() throws {
        let folders = Set(try Self.engineSources().map(\.folder))
        #expect(folders.subtracting(Self.layers.keys).isEmpty, "place these folders in LayeringTests.layers")
    }

    @Test func theScanFindsWhatEachLayerDeclares() throws {
        let declared = Dictionary(
            try Self.engineSources().flatMap { file in file.declared.map { ($0, file.folder) } },
            uniquingKeysWith: { a, _ in a })
        #expect(declared["JSONDocument"] == "JSON")
        #expect(declared["Evaluation"] == "Evaluating")
        #expect(declared["Violation"] == "Evaluating")
        #expect(declared["Validator"] == "")
        #expect(Self.identifiers(in: "let x: [Violation] = plan.check(a)").contains("Violation"))
    }

    @Test func noFileNamesATypeOfALayerAboveIt() throws {
        let files = try Self.engineSources()
        var layerOfType: [String: (folder: String, layer: Int)] = [:]
        for file in files {
            let layer = try #require(Self.layers[file.folder])
            for name in file.declared { layerOfType[name] = (file.folder, layer) }
        }
        var upward: [String] = []
        for file in files {
            let layer = try #require(Self.layers[file.folder])
            for name in file.identifiers.sorted() {
                if let owner = layerOfType[name], owner.layer > layer {
                    upward.append("\(file.path) names \(name) (\(owner.folder.isEmpty ? "the API" : owner.folder))")
                }
            }
        }
        #expect(upward.isEmpty, "\(upward.joined(separator: "\n"))")
    }

    /// Memory managed by hand (allocation, `Unmanaged`, forced base addresses) is in `Lowered` alone, each site with a
    /// `// SAFETY:` line within the three lines above it saying why it holds; nothing holds a reference
    /// `unowned(unsafe)` or borrows one with `_withUnsafeGuaranteedRef`.
    @Test func manualLifetimeCodeIsInOneFolderAndSaysWhyItIsSafe() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/DCEEngine")
        let manual = ["Unmanaged", ".allocate(", ".deallocate()", "unsafelyUnwrapped", "deinitialize("]
        let forbidden = ["unowned(unsafe)", "_withUnsafeGuaranteedRef"]
        var outside: [String] = []
        var unexplained: [String] = []
        var sites = 0
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) where path.hasSuffix(".swift") {
            let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
                if forbidden.contains(where: code.contains) { outside.append("\(path):\(number + 1) \(line)") }
                guard manual.contains(where: code.contains) else { continue }
                sites += 1
                if !path.hasPrefix("Lowered/") { outside.append("\(path):\(number + 1)") }
                if !lines[max(0, number - 3)..<number].contains(where: { $0.contains("// SAFETY:") }) {
                    unexplained.append("\(path):\(number + 1)")
                }
            }
        }
        #expect(sites > 5, "the scan finds the sites")
        #expect(outside.isEmpty, "\(outside.joined(separator: "\n"))")
        #expect(unexplained.isEmpty, "no SAFETY line: \(unexplained.joined(separator: "\n"))")
    }

    /// Each file of the engine does one job, in at most 600 lines.
    @Test func noEngineFileIsOver600Lines() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/DCEEngine")
        var long: [String] = []
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) where path.hasSuffix(".swift") {
            let count =
                try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).count - 1
            if count > 600 { long.append("\(path): \(count) lines") }
        }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
    }

    /// Every type of the package that the compiler takes on trust as `@unchecked Sendable` says why it is safe to
    /// share, in its comment: a paragraph starting "`@unchecked Sendable`" within the eight lines above it.
    @Test func everyUncheckedSendableSaysWhy() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var declarations = 0
        var unexplained: [String] = []
        for path in try FileManager.default.subpathsOfDirectory(atPath: sources.path) where path.hasSuffix(".swift") {
            let lines = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
                guard code.contains("@unchecked Sendable") else { continue }
                declarations += 1
                if !lines[max(0, number - 8)..<number].contains(where: { $0.contains("/// `@unchecked Sendable`") }) {
                    unexplained.append("\(path):\(number + 1)")
                }
            }
        }
        #expect(declarations >= 10, "the scan finds the declarations")
        #expect(unexplained.isEmpty, "no reason given: \(unexplained.joined(separator: ", "))")
    }

    @Test func thePublicSurfaceIsTheListedOne() throws {
        let published = Set(try Self.engineSources().flatMap(\.published))
        #expect(published.count > 20, "the scan finds the public types")
        #expect(
            published.subtracting(Self.publicTypes).isEmpty,
            "public but not listed: \(published.subtracting(Self.publicTypes).sorted())")
        #expect(
            Self.publicTypes.subtracting(published).isEmpty,
            "listed but not public: \(Self.publicTypes.subtracting(published).sorted())")
    }
}
