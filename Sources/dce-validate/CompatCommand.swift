import ArgumentParser
import DCECommandLine
import DCECompatibility
import DCEEngine
import DCEEnvelope
import DCEReports
import Foundation

/// `dce-validate compat OLD NEW`: what a catalogue change breaks, both directions, with a witness for every break.
struct CompatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compat",
        abstract: "Compare two versions of the schemas: what the change breaks, for the apps that send and that read.",
        discussion: """
            OLD and NEW are schema folders or served catalogue files (the body dce-gateway signs). With --against \
            REV, NEW is the folder given (Schemas by default) and OLD the same folder at a git revision.

            Every field is compared under every context value and tender type the old schemas declare. For a \
            request schema, what refuses payloads the old one accepted breaks the apps that send (a new required \
            field, a shorter maximum, a removed option, a new pattern, ...); for a response schema, what lets \
            through values the old one did not breaks the apps that read (a new option, a longer maximum, a changed \
            pattern, ...), and a new member breaks them only where the old object refused members it did not know. \
            Each breaking request change comes with a payload the old schemas accept and the new ones refuse, \
            checked against both, taken from --examples or made from one of them; sensitive values in it are shown \
            masked.

            Exit status: 0 nothing breaks at error severity; 1 something does; 2 usage, a folder or file that cannot \
            be read, or schemas that do not compile (with lint's problems).

            Examples:
              dce-validate compat old/Schemas Schemas
              dce-validate compat --against main --format json
            """)

    @Argument(help: ArgumentHelp("The old schemas and the new ones: folders or catalogue files.", valueName: "old new"))
    var sides: [String] = []

    @Option(help: ArgumentHelp("Compare with the new schemas' folder as it is at this git revision.", valueName: "rev"))
    var against: String?

    /// What `compat` writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif, github
    }

    @Option(help: ArgumentHelp("The output format: text, json, sarif or github.", valueName: "format"))
    var format: Format = .text

    @Option(
        help: ArgumentHelp(
            "Where witnesses are taken from: a folder of examples (with a manifest.json, as Examples/ has). Default: Examples, when there is one.",
            valueName: "dir"))
    var examples: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Validate these payloads against both sides: files, NDJSON files (a payload a line) or folders (a folder named after a schema holds its payloads; Examples/ with its manifest.json).",
            valueName: "path"))
    var replay: [String] = []

    @Option(help: ArgumentHelp("The schema of the replayed payloads not in a folder named after one.", valueName: "id"))
    var schema: String?

    @OptionGroup var call: CallOptions

    @Option(
        help: ArgumentHelp(
            "A team's severities: lines of 'CHANGE-ID SEVERITY' (info, warning or error; # starts a comment). Default: compat-severity.txt in the new schemas' folder, when there is one.",
            valueName: "file"))
    var severity: String?

    func validate() throws {
        _ = try ContextOption.parse(call.contexts)
        if against == nil && sides.count != 2 {
            throw ValidationError("Give the old and the new schemas (folders or catalogue files), or --against REV.")
        }
        if against != nil && sides.count > 1 {
            throw ValidationError("With --against REV, give at most the new schemas' folder.")
        }
    }

    func run() throws {
        var scratch: URL?
        defer { scratch.map { try? FileManager.default.removeItem(at: $0) } }
        let oldSource: SchemaSource
        let newSource: SchemaSource
        let newPath = against == nil ? sides[1] : sides.first ?? "Schemas"
        if let against {
            let (folder, unpacked) = try Self.schemas(at: against, folder: newPath)
            scratch = unpacked
            oldSource = .directory(folder)
        } else {
            oldSource = try Self.source(sides[0])
        }
        newSource = try Self.source(newPath)
        var isFolder: ObjCBool = false
        let newFolder =
            FileManager.default.fileExists(atPath: newPath, isDirectory: &isFolder) && isFolder.boolValue
            ? newPath : nil
        let old = try SchemaOption.validator(source: oldSource, ids: nil)
        let new = try SchemaOption.validator(source: newSource, ids: nil)
        let comparison = SchemaComparison(old: old, new: new, examples: try loadExamples())
        // Files as a reader finds them: relative to here, and the revision's as REV:Schemas/FILE.
        let here = FileManager.default.currentDirectoryPath + "/"
        let revision = scratch.map { ($0.path + "/", (against ?? "") + ":") }
        let severities = try self.severities(folder: newFolder)
        let changes = severities.applied(to: comparison.changes()).map { change in
            var change = change
            if let file = change.location?.file {
                if let (folder, name) = revision, file.hasPrefix(folder) {
                    change.location?.file = name + file.dropFirst(folder.count)
                } else if file.hasPrefix(here) {
                    change.location?.file = String(file.dropFirst(here.count))
                }
            }
            return change
        }
        let versions = severities.applied(to: comparison.versions(for: changes))
        let replayed = replay.isEmpty ? nil : comparison.replay(try replayPayloads())
        switch format {
        case .text: try StandardOutput.write(Self.text(changes, versions: versions, replay: replayed))
        case .json: try StandardOutput.write(Self.json(changes, versions: versions, replay: replayed))
        case .sarif: try StandardOutput.write(Self.sarif(changes, versions: versions))
        case .github: try StandardOutput.write(Self.github(changes, versions: versions, replay: replayed))
        }
        if changes.contains(where: { $0.severity == .error }) || versions.contains(where: { $0.severity == .error }) {
            throw ExitStatus.invalid
        }
    }

    // MARK: - Inputs

    /// A folder of schemas, or a catalogue file (its documents).
    static func source(_ path: String) throws -> SchemaSource {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            Diagnostics.error("'\(path)' does not exist: give a schema folder or a catalogue file")
            throw ExitStatus.failure
        }
        if isFolder.boolValue { return .directory(URL(fileURLWithPath: path)) }
        do {
            let body = try CatalogueBody(json: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
            return .documents(body.documents)
        } catch let error as CatalogueError {
            Diagnostics.error("'\(path)' is not a catalogue: \(error.message)")
            throw ExitStatus.failure
        } catch {
            Diagnostics.error("cannot read '\(path)': \(error.localizedDescription)")
            throw ExitStatus.failure
        }
    }

    /// A schema folder (a path inside the repository, relative to here) at a git revision, unpacked into a temporary
    /// folder: the folder, and the temporary folder to remove after (its files are named `REV:PATH/FILE` in reports).
    static func schemas(at revision: String, folder path: String) throws -> (folder: URL, unpacked: URL) {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path + "/"
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard (absolute + "/").hasPrefix(here) else {
            Diagnostics.error(
                "with --against, give the new schemas as a folder inside the repository, at or below here ('\(path)' is not)"
            )
            throw ExitStatus.failure
        }
        let relative = absolute == String(here.dropLast()) ? "." : String(absolute.dropFirst(here.count))
        let unpacked = FileManager.default.temporaryDirectory.appendingPathComponent("dce-compat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        let archive = Process()
        archive.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        archive.arguments = [
            "sh", "-c", #"git archive --format=tar "$1" -- "$2" | tar -x -C "$3""#, "sh", revision, relative,
            unpacked.path,
        ]
        let errors = Pipe()
        archive.standardError = errors
        do {
            try archive.run()
        } catch {
            Diagnostics.error("cannot run git: \(error.localizedDescription)")
            throw ExitStatus.failure
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        archive.waitUntilExit()
        guard archive.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: unpacked)
            let reason = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            Diagnostics.error(
                "cannot read \(relative) at '\(revision)': \(reason.isEmpty ? "git archive failed" : reason)")
            throw ExitStatus.failure
        }
        return (unpacked.appendingPathComponent(relative).standardizedFileURL, unpacked)
    }

    /// The examples witnesses are taken from, by schema id: those `manifest.json` lists, else every JSON file of a
    /// folder named after its schema.
    private func loadExamples() throws -> [String: [SchemaComparison.Example]] {
        let folder = examples ?? "Examples"
        let root = URL(fileURLWithPath: folder)
        guard FileManager.default.fileExists(atPath: root.path) else {
            if examples != nil {
                Diagnostics.error("the examples folder '\(folder)' does not exist")
                throw ExitStatus.failure
            }
            return [:]
        }
        var found: [String: [SchemaComparison.Example]] = [:]
        if let entries = Self.manifest(in: folder) {
            for entry in entries {
                guard let bytes = try? Data(contentsOf: root.appendingPathComponent(entry.file)) else { continue }
                found[entry.schema, default: []].append(
                    SchemaComparison.Example(
                        name: "\(folder)/\(entry.file)", payload: [UInt8](bytes), context: entry.context ?? [:],
                        tenderType: entry.tenderType))
            }
            return found
        }
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for schema in folders.sorted() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(schema).path))
            for file in (files ?? []).sorted() where file.hasSuffix(".json") {
                guard
                    let bytes = try? Data(contentsOf: root.appendingPathComponent(schema).appendingPathComponent(file))
                else { continue }
                found[schema, default: []].append(
                    SchemaComparison.Example(name: "\(folder)/\(schema)/\(file)", payload: [UInt8](bytes)))
            }
        }
        return found
    }

    /// The team's severities, from `--severity` or the new schemas' `compat-severity.txt`; a line that names no
    /// change id or severity is a usage error.
    private func severities(folder: String?) throws -> CompatSeverities {
        let path = severity ?? folder.map { $0 + "/" + CompatSeverities.fileName }
        guard let path, severity != nil || FileManager.default.fileExists(atPath: path) else {
            return CompatSeverities()
        }
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            Diagnostics.error("cannot read the severities '\(path)': \(error.localizedDescription)")
            throw ExitStatus.failure
        }
        do {
            return try CompatSeverities(text: text)
        } catch {
            Diagnostics.error("\(path):\(error.line): \(error.message)")
            throw ExitStatus.failure
        }
    }

    /// The entries of a folder's `manifest.json` (as `Examples/` has): each example's file, schema, context and
    /// tender type; updates checked against a stored record (`original`) left out. `nil` without a manifest.
    static func manifest(in folder: String) -> [(
        file: String, schema: String, context: [String: String]?, tenderType: String?
    )]? {
        let url = URL(fileURLWithPath: folder).appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url),
            let entries = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["examples"]
                as? [[String: Any]]
        else { return nil }
        return entries.compactMap { entry in
            guard entry["original"] == nil, let file = entry["file"] as? String, let schema = entry["schema"] as? String
            else { return nil }
            return (file, schema, entry["context"] as? [String: String], entry["tenderType"] as? String)
        }
    }

    /// The payloads of `--replay`, each with its schema (`--schema`, a manifest's, or its folder's name), context
    /// and tender type (`--context`, `--tender-type`, or a manifest's).
    private func replayPayloads() throws -> [ReplayPayload] {
        let context = try ContextOption.parse(call.contexts)
        var payloads: [ReplayPayload] = []
        func add(_ path: String, schema: String?, context: [String: String], tenderType: String?) throws {
            guard let schema = schema ?? self.schema else {
                Diagnostics.error(
                    "'\(path)': no schema for it: give --schema ID, or keep it in a folder named after its schema")
                throw ExitStatus.failure
            }
            let bytes: [UInt8]
            do {
                bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                Diagnostics.error("cannot read '\(path)': \(error.localizedDescription)")
                throw ExitStatus.failure
            }
            guard path.hasSuffix(".ndjson") else {
                payloads.append(
                    ReplayPayload(file: path, schema: schema, context: context, tenderType: tenderType, bytes: bytes))
                return
            }
            for (offset, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .enumerated() where !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 })
            {
                payloads.append(
                    ReplayPayload(
                        file: path, line: offset + 1, schema: schema, context: context, tenderType: tenderType,
                        bytes: Array(line)))
            }
        }
        for path in replay {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                Diagnostics.error("'\(path)' does not exist (--replay)")
                throw ExitStatus.failure
            }
            guard isFolder.boolValue else {
                try add(path, schema: nil, context: context, tenderType: call.tenderType)
                continue
            }
            if let entries = Self.manifest(in: path) {
                for entry in entries {
                    try add(
                        path + "/" + entry.file, schema: entry.schema, context: entry.context ?? context,
                        tenderType: entry.tenderType ?? call.tenderType)
                }
                continue
            }
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
            for file in files.sorted() where file.hasSuffix(".json") || file.hasSuffix(".ndjson") {
                let folder = URL(fileURLWithPath: file).deletingLastPathComponent().lastPathComponent
                let named = file.contains("/") ? folder : URL(fileURLWithPath: path).lastPathComponent
                try add(
                    path + "/" + file, schema: self.schema ?? named, context: context, tenderType: call.tenderType)
            }
        }
        return payloads
    }

    // MARK: - Output

    static func text(_ changes: [SchemaChange], versions: [VersionCheck], replay: ReplayResult?) -> String {
        var lines: [String] = []
        for change in changes {
            let location =
                change.location.map { location in
                    location.file + (location.position.map { ":\($0.line):\($0.column)" } ?? "")
                } ?? change.schema
            lines.append("\(location): \(change.severity.rawValue): \(change.summary)")
            if let witness = change.witness {
                lines.append(
                    "  witness\(witness.source.map { " from \($0)" } ?? ""): \(String(decoding: witness.shown, as: UTF8.self))"
                )
            } else if let reason = change.noWitness {
                lines.append("  no witness: \(reason)")
            }
        }
        for check in versions where !check.bumped {
            lines.append(
                "\(check.schema): \(check.severity.rawValue): version \(check.old) → \(check.new): "
                    + (check.required == "major"
                        ? "a breaking change needs a major version bump"
                        : "an additive change needs a minor version bump"))
        }
        if let replay {
            for (turned, how) in replay.newlyInvalid.map({ ($0, "newly invalid") })
                + replay.newlyValid.map({ ($0, "newly valid") })
            {
                let place = turned.file + (turned.line.map { ":\($0)" } ?? "")
                let why = turned.violations.map { "\($0.path.isEmpty ? "/" : $0.path) [\($0.rule)]" }
                lines.append("\(place): \(how) (\(turned.schema)): \(why.joined(separator: ", "))")
            }
            lines.append(
                "replay: \(replay.checked) payloads checked, \(replay.newlyInvalid.count) newly invalid, "
                    + "\(replay.newlyValid.count) newly valid")
        }
        let counts = SchemaChange.Severity.allCases.reversed().map { severity in
            "\(changes.filter { $0.severity == severity }.count) \(severity.rawValue)"
        }
        let breaking = changes.filter(\.breaking).count
        lines.append(
            "compat: \(changes.count) change\(changes.count == 1 ? "" : "s"), \(breaking) breaking (\(counts.joined(separator: ", ")))"
        )
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ changes: [SchemaChange], versions: [VersionCheck], replay: ReplayResult?) throws -> String {
        let entries: [[String: Any]] = changes.map { change in
            var entry: [String: Any] = [
                "schema": change.schema, "path": change.path, "change": change.change, "breaking": change.breaking,
                "severity": change.severity.rawValue, "direction": change.direction.rawValue,
                "context": change.context, "tenderType": change.tenderType ?? NSNull(), "given": change.given,
                "detail": change.detail,
            ]
            entry["location"] =
                change.location.map { location -> Any in
                    [
                        "file": location.file, "pointer": location.pointer,
                        "line": location.position.map { $0.line as Any } ?? NSNull(),
                        "column": location.position.map { $0.column as Any } ?? NSNull(),
                    ] as [String: Any]
                } ?? NSNull()
            if let witness = change.witness {
                entry["witness"] =
                    [
                        "payload": (try? JSONSerialization.jsonObject(with: Data(witness.shown))) ?? NSNull(),
                        "context": witness.context, "tenderType": witness.tenderType ?? NSNull(),
                        "source": witness.source ?? NSNull(),
                    ] as [String: Any]
            } else {
                entry["witness"] = NSNull()
                if let reason = change.noWitness { entry["noWitness"] = reason }
            }
            return entry
        }
        var document: [String: Any] = [
            "changes": entries,
            "versions": versions.map {
                [
                    "schema": $0.schema, "old": $0.old, "new": $0.new, "required": $0.required, "bumped": $0.bumped,
                    "severity": $0.severity.rawValue,
                ] as [String: Any]
            },
        ]
        if let replay {
            func entries(_ turned: [ReplayResult.Turned]) -> [[String: Any]] {
                turned.map { turned in
                    [
                        "file": turned.file, "line": turned.line.map { $0 as Any } ?? NSNull(), "schema": turned.schema,
                        "violations": turned.violations.map { ["rule": $0.rule, "path": $0.path] },
                    ]
                }
            }
            document["replay"] =
                [
                    "checked": replay.checked, "newlyInvalid": entries(replay.newlyInvalid),
                    "newlyValid": entries(replay.newlyValid),
                ] as [String: Any]
        }
        let data = try JSONSerialization.data(
            withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// SARIF 2.1.0, as GitHub code scanning reads it: a rule per change id, a result per change at the changed
    /// attribute's line and column (the witness in its property bag), and a result per version not bumped.
    static func sarif(_ changes: [SchemaChange], versions: [VersionCheck]) throws -> String {
        let levels: [SchemaChange.Severity: String] = [.error: "error", .warning: "warning", .info: "note"]
        let rules =
            Set(changes.map(\.change)).sorted().map { id -> [String: Any] in
                let kind: String =
                    switch SchemaChange.kinds[id] {
                    case .tightening: "Fewer payloads pass: breaks the apps that send requests."
                    case .loosening: "More payloads pass: breaks the apps that read responses."
                    case .both: "Breaks the apps that send and the apps that read."
                    case .neither, nil: "What people read; breaks no app."
                    }
                return ["id": id, "name": id, "shortDescription": ["text": kind]]
            } + [
                [
                    "id": "version-not-bumped", "name": "version-not-bumped",
                    "shortDescription": ["text": "A schema's version does not move as its changes ask."],
                ]
            ]
        var results: [[String: Any]] = changes.map { change in
            var result: [String: Any] = [
                "ruleId": change.change, "level": levels[change.severity] ?? "note",
                "message": [
                    "text": "\(change.schema) \(change.path.isEmpty ? "(schema)" : change.path): \(change.detail)"
                ],
            ]
            if let location = change.location {
                var physical: [String: Any] = ["artifactLocation": ["uri": location.file]]
                if let position = location.position {
                    physical["region"] = ["startLine": position.line, "startColumn": position.column]
                }
                result["locations"] = [["physicalLocation": physical]]
            }
            var properties: [String: Any] = [
                "schema": change.schema, "path": change.path, "breaking": change.breaking,
                "direction": change.direction.rawValue, "context": change.context,
            ]
            if let tenderType = change.tenderType { properties["tenderType"] = tenderType }
            if !change.given.isEmpty { properties["given"] = change.given }
            if let witness = change.witness {
                properties["witness"] = (try? JSONSerialization.jsonObject(with: Data(witness.shown))) ?? NSNull()
            }
            if let reason = change.noWitness { properties["noWitness"] = reason }
            result["properties"] = properties
            return result
        }
        for check in versions where !check.bumped {
            results.append([
                "ruleId": "version-not-bumped", "level": levels[check.severity] ?? "note",
                "message": [
                    "text": "\(check.schema): version \(check.old) → \(check.new) needs a \(check.required) bump"
                ],
            ])
        }
        let document: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [
                [
                    "tool": [
                        "driver": [
                            "name": "dce-validate compat", "version": DCEVersion.current,
                            "informationUri": "https://github.com/dce-validate/dce-validate", "rules": rules,
                        ] as [String: Any]
                    ],
                    "columnKind": "unicodeCodePoints", "results": results,
                ] as [String: Any]
            ],
        ]
        let data = try JSONSerialization.data(
            withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// GitHub Actions workflow commands: an annotation per change of warning or error severity on the changed
    /// attribute's line, one per version not bumped, and one per payload replay turned.
    static func github(_ changes: [SchemaChange], versions: [VersionCheck], replay: ReplayResult?) -> String {
        var output = ""
        for change in changes where change.severity != .info {
            var properties: [String] = []
            if let location = change.location {
                properties.append("file=\(GitHubRenderer.property(location.file))")
                if let position = location.position {
                    properties.append("line=\(position.line)")
                    properties.append("col=\(position.column)")
                }
            }
            properties.append("title=\(GitHubRenderer.property("dce-validate compat \(change.change)"))")
            let scope = change.scope
            let message =
                "\(change.schema) \(change.path.isEmpty ? "(schema)" : change.path): \(change.detail)"
                + (scope.isEmpty ? "" : " [\(scope)]")
                + (change.witness.map { "\nwitness: " + String(decoding: $0.shown, as: UTF8.self) } ?? "")
            output +=
                "::\(change.severity == .error ? "error" : "warning") \(properties.joined(separator: ","))::\(GitHubRenderer.data(message))\n"
        }
        for check in versions where !check.bumped {
            output +=
                "::\(check.severity == .error ? "error" : "warning") title=dce-validate compat::"
                + GitHubRenderer.data(
                    "\(check.schema): version \(check.old) → \(check.new) needs a \(check.required) bump")
                + "\n"
        }
        for turned in replay?.newlyInvalid ?? [] {
            var properties = ["file=\(GitHubRenderer.property(turned.file))"]
            if let line = turned.line { properties.append("line=\(line)") }
            properties.append("title=dce-validate compat replay")
            let why = turned.violations.map { "\($0.path.isEmpty ? "/" : $0.path) [\($0.rule)]" }
            output +=
                "::error \(properties.joined(separator: ","))::"
                + GitHubRenderer.data("newly invalid (\(turned.schema)): \(why.joined(separator: ", "))") + "\n"
        }
        return output
    }
}
