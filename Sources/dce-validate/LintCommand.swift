import ArgumentParser
import DCECommandLine
import DCEEngine
import Foundation

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Check a schema directory: every schema and reference data file loads and compiles, no regex is prone to catastrophic backtracking, and every example gives the verdict its name promises.",
        discussion: """
            Examples live in EXAMPLES/<schema-id>/: valid-*.json must be valid, invalid-<rule>-*.json must be \
            invalid with that rule. EXAMPLES/manifest.json may give an example its context and tender type, and an \
            update example the stored record it changes (original).

            Code generated from the directory (dce-generated.lock, written by `dce-validate generate swift`) that is \
            older than its schemas is a warning, with the command that generates it again; it leaves the status as it is.

            Example:
              dce-validate lint Schemas
            Exit status: 0 no problems; 1 problems found; 2 the directory cannot be read.
            """
    )

    @Argument(
        help: ArgumentHelp("The schema directory (default: the schemas shipped with dce-validate).", valueName: "dir"))
    var directory: String?

    @Option(
        help: ArgumentHelp("The examples directory (default: Examples beside the schema directory).", valueName: "dir"))
    var examples: String?

    func run() throws {
        let source: SchemaSource = directory.map { .directory(URL(fileURLWithPath: $0)) } ?? .bundled
        let ids: [String]
        do {
            ids = try source.schemaIDs()
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        var problems: [SchemaProblem] = []
        var seen: Set<String> = []
        var validators: [String: Validator] = [:]
        for id in ids {
            do {
                let validator = try Validator(source: source, schemaIDs: [id])
                validators[id] = validator
                problems += validator.schema(id)?.warnings ?? []
            } catch {
                problems += error.problems
            }
        }
        // Address patterns are compiled when their country is first seen, not when the data loads: lint compiles all.
        problems += ReferenceData.problems(in: source)
        problems = problems.filter { seen.insert($0.description).inserted }  // a shared file's problem once
        let warnings =
            directory.map {
                GeneratedCodeRecord.read(in: URL(fileURLWithPath: $0)).staleness(
                    in: URL(fileURLWithPath: $0), named: $0)
            } ?? []
        var checked = 0
        if let examplesDirectory = examplesDirectory() {
            let manifest = ExampleManifest.load(from: examplesDirectory)
            for id in ids {
                guard let validator = validators[id] else { continue }
                let folder = examplesDirectory.appendingPathComponent(id)
                let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
                    $0.hasSuffix(".json")
                }.sorted()
                for file in files {
                    checked += 1
                    if let problem = check(
                        folder.appendingPathComponent(file), named: file, schema: id, validator: validator,
                        entry: manifest["\(id)/\(file)"])
                    {
                        problems.append(problem)
                    }
                }
            }
        }
        for problem in problems { print(problem) }
        for warning in warnings { print(warning) }
        print(
            "lint: \(ids.count) schema\(ids.count == 1 ? "" : "s") and \(checked) example\(checked == 1 ? "" : "s") checked, "
                + "\(problems.count) problem\(problems.count == 1 ? "" : "s")"
                + (warnings.isEmpty ? "" : ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")"))
        throw problems.isEmpty ? ExitStatus.valid : ExitStatus.invalid
    }

    private func examplesDirectory() -> URL? {
        if let examples { return URL(fileURLWithPath: examples) }
        guard let directory else { return nil }
        let sibling = URL(fileURLWithPath: directory).standardizedFileURL.deletingLastPathComponent()
            .appendingPathComponent("Examples")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: sibling.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? sibling : nil
    }

    /// The problem with one example, or `nil` when it gives the verdict its name promises.
    private func check(
        _ url: URL, named file: String, schema: String, validator: Validator, entry: ExampleManifest.Entry?
    ) -> SchemaProblem? {
        let path = examples.map { "\($0)/\(schema)/\(file)" } ?? url.path
        func problem(_ message: String) -> SchemaProblem {
            SchemaProblem(
                code: .example, message: message, location: SchemaLocation(file: path, pointer: "", position: nil))
        }
        let expected: String?
        if file.hasPrefix("valid-") {
            expected = nil
        } else if file.hasPrefix("invalid-"), let rule = file.dropFirst("invalid-".count).split(separator: "-").first {
            expected = String(rule.hasSuffix(".json") ? rule.dropLast(5) : rule)
        } else {
            return problem("an example's name starts with valid- or invalid-<rule>-")
        }
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            return problem("cannot read the example")
        }
        let report: ValidationReport
        do {
            let prepared = try validator.prepare(schema, context: entry?.context ?? [:], tenderType: entry?.tenderType)
            if let original = entry?.original {
                // An update example: a merge patch onto the stored record the manifest names.
                let folder = url.deletingLastPathComponent().deletingLastPathComponent()
                guard let stored = FileManager.default.contents(atPath: folder.appendingPathComponent(original).path)
                else {
                    return problem("cannot read the stored record '\(original)' the manifest names")
                }
                report = prepared.validate(json: [UInt8](bytes), original: [UInt8](stored))
            } else {
                report = prepared.validate(json: [UInt8](bytes))
            }
        } catch {
            return problem("the manifest's context does not fit the schema: \(error)")
        }
        let rules = report.errors.map(\.rule.rawValue)
        switch expected {
        case nil where !report.valid:
            return problem("expected valid, got \(rules.joined(separator: ", "))")
        case let rule? where !rules.contains(rule):
            return problem(
                report.valid
                    ? "expected rule '\(rule)', but the payload is valid"
                    : "expected rule '\(rule)', got \(rules.joined(separator: ", "))")
        default:
            return nil
        }
    }
}

/// `Examples/manifest.json`: the context and tender type each example is validated with, and for an update the
/// stored record it changes.
enum ExampleManifest {
    struct Entry: Decodable {
        var file: String
        var context: [String: String]?
        var tenderType: String?
        /// For an update: the stored record it is a merge patch onto, relative to the examples directory.
        var original: String?
    }

    static func load(from directory: URL) -> [String: Entry] {
        struct Manifest: Decodable { var examples: [Entry] }
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent("manifest.json").path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [:] }
        return Dictionary(manifest.examples.map { ($0.file, $0) }) { first, _ in first }
    }
}
