import ArgumentParser
import DCECommandLine
import DCEEngine
import DCESwiftGeneration
import Foundation

/// `dce-validate generate`: code from schemas.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write code from a schema folder.",
        subcommands: [GenerateSwiftCommand.self]
    )
}

/// `dce-validate generate swift`: the Swift models of a schema folder, a file for each schema.
struct GenerateSwiftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Write the Swift models of a schema folder: a Codable, Hashable, Sendable type for each schema.",
        discussion: """
            Each schema's root becomes a ValidatableRequest named by its swiftName (else its id in UpperCamelCase), \
            with a public memberwise initializer in the schema's field order; objects and options written in place \
            are nested in it, or declared beside it under their own swiftName. Options are OpenEnums, sensitive \
            fields SensitiveStrings, and a merge patch's nullable fields Patches. The types write themselves for \
            the engine, so validate(request) uses no Encoder.

            The files are formatted with swift format (the .swift-format found above the output folder), and files \
            this command wrote before for schemas no longer generated are removed. What was generated, from which \
            schema contents, is recorded in the schema folder's dce-generated.lock, which `dce-validate lint` reads \
            to warn when the code is older than its schemas.

            Example:
              dce-validate generate swift --schemas Schemas --output Sources/AppModels
            Exit status: 0 written; 2 a schema cannot be read, a name cannot be given, or a file cannot be written.
            """
    )

    @Option(help: ArgumentHelp("The schema folder.", valueName: "dir"))
    var schemas: String

    @Option(
        name: .customLong("schema"),
        help: ArgumentHelp(
            "A schema to generate (repeatable; those its refs reach come too); default: every schema.", valueName: "id")
    )
    var schemaIDs: [String] = []

    @Option(help: ArgumentHelp("The folder the Swift files are written to.", valueName: "dir"))
    var output: String

    @Option(help: "The declarations' access level: public, package or internal.")
    var access: AccessOption = .public

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp(
            "A module the code imports (repeatable); default: DCEEngine and DCEModels.", valueName: "module"))
    var imports: [String] = []

    @Option(
        help: ArgumentHelp(
            "The swift format configuration (default: the .swift-format found above the output folder).",
            valueName: "file"))
    var formatConfiguration: String?

    @Flag(help: "Leave the files as generated, without swift format.")
    var noFormat = false

    func run() throws {
        let schemaFolder = URL(fileURLWithPath: schemas).standardizedFileURL
        let outputFolder = URL(fileURLWithPath: output).standardizedFileURL
        let configuration = SwiftModelGenerator.Configuration(
            schemas: schemaIDs.isEmpty ? nil : schemaIDs, accessLevel: access.level,
            imports: imports.isEmpty ? ["DCEEngine", "DCEModels"] : imports)
        let files: [SwiftModelGenerator.File]
        do {
            files = try SwiftModelGenerator(configuration: configuration).files(from: .directory(schemaFolder))
        } catch {
            for problem in error.problems { Diagnostics.error(problem) }
            throw ExitStatus.failure
        }
        let written: [String: String]
        do {
            written = try format(files)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        do {
            try install(written, in: outputFolder)
            var record = GeneratedCodeRecord.read(in: schemaFolder)
            record.swift.removeAll {
                $0.output == GeneratedCodeRecord.relativePath(of: outputFolder, from: schemaFolder)
            }
            record.swift.append(
                GeneratedCodeRecord.Entry(
                    output: GeneratedCodeRecord.relativePath(of: outputFolder, from: schemaFolder),
                    selection: configuration.schemas, access: access.rawValue, imports: imports,
                    schemas: try GeneratedCodeRecord.fingerprints(
                        of: files.flatMap(\.schemaIDs), in: schemaFolder)))
            try record.write(in: schemaFolder)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        print("generate swift: \(files.count) file\(files.count == 1 ? "" : "s") in \(output)")
    }

    /// The files' contents as swift format leaves them (or as generated, with `--no-format`).
    private func format(_ files: [SwiftModelGenerator.File]) throws -> [String: String] {
        var result: [String: String] = [:]
        for file in files { result[file.name] = file.contents }
        guard !noFormat else { return result }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dce-generate-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for file in files {
            try Data(file.contents.utf8).write(to: scratch.appendingPathComponent(file.name))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["swift", "format", "format", "--in-place", "--parallel"]
        if let configuration = formatConfiguration ?? Self.formatConfiguration(above: URL(fileURLWithPath: output)) {
            arguments += ["--configuration", configuration]
        }
        process.arguments = arguments + files.map { scratch.appendingPathComponent($0.name).path }
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw DiagnosticError("cannot run swift format (use --no-format to write the files unformatted): \(error)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DiagnosticError(
                "swift format failed (use --no-format to write the files unformatted): "
                    + String(decoding: message, as: UTF8.self))
        }
        for file in files {
            result[file.name] = try String(
                contentsOf: scratch.appendingPathComponent(file.name), encoding: .utf8)
        }
        return result
    }

    /// The `.swift-format` in a folder or the nearest folder above it.
    static func formatConfiguration(above folder: URL) -> String? {
        var current = folder.standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent(".swift-format")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// Writes the files that changed, and removes the ones this command wrote before that are no longer generated.
    private func install(_ files: [String: String], in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in existing where name.hasSuffix(".swift") && files[name] == nil {
            let url = folder.appendingPathComponent(name)
            if let text = try? String(contentsOf: url, encoding: .utf8),
                text.hasPrefix(GeneratedCodeRecord.header)
            {
                try FileManager.default.removeItem(at: url)
            }
        }
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(name)
            if (try? String(contentsOf: url, encoding: .utf8)) == contents { continue }
            try Data(contents.utf8).write(to: url, options: .atomic)
        }
    }
}

/// `--access`.
enum AccessOption: String, ExpressibleByArgument, CaseIterable {
    case `public`, `package`, `internal`

    var level: SwiftModelGenerator.AccessLevel { SwiftModelGenerator.AccessLevel(rawValue: rawValue)! }
}
