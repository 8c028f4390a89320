import DCEEngine
import Foundation
import Testing

/// `dce-validate compat` from the outside: exit statuses, the text and JSON outputs, witnesses with their sensitive
/// values masked, and `--against` a git revision.
struct CompatCommandTests {
    /// A copy of Schemas/ with `edit` applied to one file's text.
    private func schemas(editing file: String, _ edit: (String) -> String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compat-cli-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.repository.appendingPathComponent("Schemas"), to: folder)
        let url = folder.appendingPathComponent(file)
        try edit(try String(contentsOf: url, encoding: .utf8)).write(to: url, atomically: true, encoding: .utf8)
        return folder
    }

    @Test func theSameSchemasExitZero() throws {
        let result = try CLI.run(["compat", "Schemas", "Schemas"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "compat: 0 changes, 0 breaking (0 error, 0 warning, 0 info)\n")
    }

    @Test func aBreakingChangeExitsOneWithItsWitnessInJSON() throws {
        let new = try schemas(editing: "card-list-query.json") {
            $0.replacingOccurrences(
                of: #""enum": ["PHYSICAL", "VIRTUAL", "UNKNOWN"]"#, with: #""enum": ["PHYSICAL", "UNKNOWN"]"#)
        }
        defer { try? FileManager.default.removeItem(at: new) }
        let result = try CLI.run(["compat", "Schemas", new.path, "--format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let output = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let changes = try #require(output["changes"] as? [[String: Any]])
        let removed = try #require(changes.first { $0["change"] as? String == "enum-value-removed" })
        #expect(removed["schema"] as? String == "card-list-query" && removed["path"] as? String == "/cardType")
        #expect(removed["breaking"] as? Bool == true && removed["severity"] as? String == "error")
        #expect(removed["direction"] as? String == "request")
        let location = try #require(removed["location"] as? [String: Any])
        #expect((location["file"] as? String)?.hasSuffix("card-list-query.json") == true && location["line"] is Int)
        let witness = try #require(removed["witness"] as? [String: Any])
        let payload = try #require(witness["payload"] as? [String: Any])
        #expect(payload["cardType"] as? String == "VIRTUAL")
        #expect(witness["source"] as? String == "Examples/card-list-query/valid-active-virtual.json")
        let versions = try #require(output["versions"] as? [[String: Any]])
        #expect(
            versions.contains { $0["schema"] as? String == "card-list-query" && $0["required"] as? String == "major" })
    }

    /// Replay's counts are those of validating each example on its own against both sides.
    @Test func replayAgreesWithValidatingTheExamplesOneByOne() throws {
        let new = try schemas(editing: "delivery-address.json") {
            $0.replacingOccurrences(of: #""maxLength": 30"#, with: #""maxLength": 9"#)
        }
        defer { try? FileManager.default.removeItem(at: new) }
        let result = try CLI.run(["compat", "Schemas", new.path, "--replay", "Examples", "--format", "json"])
        let output = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let replay = try #require(output["replay"] as? [String: Any], "\(result.err)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: CLI.repository.appendingPathComponent("Examples/manifest.json")))
                as? [String: Any])
        let entries = (manifest["examples"] as? [[String: Any]] ?? []).filter { $0["original"] == nil }
        let (old, changed) = (try Validator(), try Validator(source: .directory(new)))
        var expected: (invalid: Set<String>, valid: Set<String>) = ([], [])
        for entry in entries {
            let file = try #require(entry["file"] as? String)
            let bytes = try [UInt8](Data(contentsOf: CLI.repository.appendingPathComponent("Examples/" + file)))
            func valid(_ validator: Validator) -> Bool {
                (try? validator.prepare(
                    entry["schema"] as! String, context: entry["context"] as? [String: String] ?? [:],
                    tenderType: entry["tenderType"] as? String
                ).validate(json: bytes).valid) ?? false
            }
            switch (valid(old), valid(changed)) {
            case (true, false): expected.invalid.insert("Examples/" + file)
            case (false, true): expected.valid.insert("Examples/" + file)
            default: break
            }
        }
        let files = { (key: String) in Set((replay[key] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String })
        }
        #expect(replay["checked"] as? Int == entries.count)
        #expect(files("newlyInvalid") == expected.invalid && !expected.invalid.isEmpty)
        #expect(files("newlyValid") == expected.valid)
        let replayed = String(decoding: try JSONSerialization.data(withJSONObject: replay), as: UTF8.self)
        #expect(!replayed.contains("Washington"), "replay names rules and pointers, never a value")
    }

    /// SARIF that the published SARIF 2.1.0 schema accepts, each break at its schema line; GitHub annotations.
    @Test func sarifAndGitHubAnnotateEachBreakOnItsSchemaLine() throws {
        let new = try schemas(editing: "delivery-address.json") {
            $0.replacingOccurrences(of: #""maxLength": 30"#, with: #""maxLength": 9"#)
        }
        defer { try? FileManager.default.removeItem(at: new) }
        let sarif = try CLI.run(["compat", "Schemas", new.path, "--format", "sarif"])
        #expect(sarif.status == 1, "\(sarif.err)")
        let file = try CLI.scratchDirectory().appendingPathComponent("compat.sarif")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try sarif.stdout.write(to: file)
        let checked = try CLI.checkReports("sarif", [file])
        #expect(checked.status == 0, "\(checked.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: sarif.stdout) as? [String: Any])
        let results = ((document["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        let cut = try #require(results.first { $0["ruleId"] as? String == "max-length-decreased" })
        let physical = (cut["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        #expect(
            ((physical?["artifactLocation"] as? [String: Any])?["uri"] as? String)?.hasSuffix("delivery-address.json")
                == true)
        // The line of the city's maxLength, the one changed.
        let lines = try String(contentsOf: new.appendingPathComponent("delivery-address.json"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains(#""maxLength": 9"#) }) + 1
        #expect((physical?["region"] as? [String: Any])?["startLine"] as? Int == line)
        #expect(cut["level"] as? String == "error")
        let github = try CLI.run(["compat", "Schemas", new.path, "--format", "github"])
        #expect(github.status == 1)
        #expect(github.out.contains("delivery-address.json,line=\(line),col="), "\(github.out)")
        #expect(
            github.out.contains(
                "title=dce-validate compat max-length-decreased::card-create /deliveryAddress/city: maxLength 30 → 9"))
        #expect(github.out.split(separator: "\n").allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") })
    }

    /// A team lowers or raises a check's severity in compat-severity.txt beside the schemas, as oasdiff's
    /// severity levels allow; a line naming no change is a usage error with its line.
    @Test func aTeamsSeveritiesKeptWithTheSchemasApply() throws {
        let new = try schemas(editing: "delivery-address.json") {
            $0.replacingOccurrences(of: #""maxLength": 30"#, with: #""maxLength": 9"#)
        }
        defer { try? FileManager.default.removeItem(at: new) }
        let file = new.appendingPathComponent("compat-severity.txt")
        try "# agreed with the apps team\nmax-length-decreased warning\nversion-not-bumped info\n".write(
            to: file, atomically: true, encoding: .utf8)
        let lowered = try CLI.run(["compat", "Schemas", new.path])
        #expect(lowered.status == 0, "\(lowered.out)\(lowered.err)")
        #expect(lowered.out.contains(": warning: card-create /deliveryAddress/city: max-length-decreased"))
        try "max-length-decreasd warning\n".write(to: file, atomically: true, encoding: .utf8)
        let typo = try CLI.run(["compat", "Schemas", new.path])
        #expect(typo.status == 2)
        #expect(
            typo.err.contains(
                "compat-severity.txt:1: no change is called 'max-length-decreasd' (did you mean 'max-length-decreased'?)"
            ), "\(typo.err)")
        let raised = try CLI.scratchDirectory().appendingPathComponent("severity.txt")
        defer { try? FileManager.default.removeItem(at: raised.deletingLastPathComponent()) }
        try "label-changed error\n".write(to: raised, atomically: true, encoding: .utf8)
        let label = try schemas(editing: "card-create.json") {
            $0.replacingOccurrences(of: #""en": "Program name""#, with: #""en": "Name of the program""#)
        }
        defer { try? FileManager.default.removeItem(at: label) }
        let strict = try CLI.run(["compat", "Schemas", label.path, "--severity", raised.path])
        #expect(strict.status == 1 && strict.out.contains(": error: card-create /programName: label-changed"))
    }

    @Test func aLabelChangeIsInformationAndExitsZero() throws {
        let new = try schemas(editing: "card-create.json") {
            $0.replacingOccurrences(of: #""en": "Program name""#, with: #""en": "Name of the program""#)
        }
        defer { try? FileManager.default.removeItem(at: new) }
        let result = try CLI.run(["compat", "Schemas", new.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains(": info: card-create /programName: label-changed (request): "))
        #expect(result.out.hasSuffix("compat: 1 change, 0 breaking (0 error, 0 warning, 1 info)\n"))
    }

    /// An older app that reads card-response, whose object takes members it does not know, accepts a new optional
    /// member: information, exit 0 (where the object refused unknown members, it breaks those apps: exit 1).
    @Test func aNewOptionalResponseMemberBreaksOnlyAnObjectThatRefusedUnknownMembers() throws {
        let customer = #"    { "key": "customerId","#
        let member = #"    { "key": "loyaltyTier", "dataType": "String", "name": {"en": "Loyalty tier"} },"# + "\n"
        let open = try schemas(editing: "card-response.json") {
            $0.replacingOccurrences(of: customer, with: member + customer)
        }
        defer { try? FileManager.default.removeItem(at: open) }
        let result = try CLI.run(["compat", "Schemas", open.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains(": info: card-response /loyaltyTier: field-added (response): a new field\n"))
        #expect(result.out.hasSuffix("compat: 2 changes, 0 breaking (0 error, 0 warning, 2 info)\n"), "\(result.out)")

        let closed = try schemas(editing: "card-response.json") {
            $0.replacingOccurrences(of: #""additionalFields": true,"#, with: #""additionalFields": false,"#)
        }
        defer { try? FileManager.default.removeItem(at: closed) }
        let closedThenAdded = try schemas(editing: "card-response.json") {
            $0.replacingOccurrences(of: #""additionalFields": true,"#, with: #""additionalFields": false,"#)
                .replacingOccurrences(of: customer, with: member + customer)
        }
        defer { try? FileManager.default.removeItem(at: closedThenAdded) }
        let breaking = try CLI.run(["compat", closed.path, closedThenAdded.path])
        #expect(breaking.status == 1, "\(breaking.err)")
        #expect(breaking.out.contains(": error: card-response /loyaltyTier: field-added (response, breaking)"))
    }

    @Test func withoutExamplesTheWitnessIsMadeFromTheSchemaAndShownMasked() throws {
        // A team's repository may have no examples: the witness is a payload made from the old schema, a list item
        // made whole around the changed field, sensitive values masked.
        let new = try schemas(editing: "payment-account.json") { text in
            let key = text.range(of: #""key": "cardholderName""#)!
            let bound = text.range(of: #""maxLength": 60"#, range: key.upperBound..<text.endIndex)!
            return text.replacingCharacters(in: bound, with: #""maxLength": 2"#)
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: new)
            try? FileManager.default.removeItem(at: empty)
        }
        let result = try CLI.run(["compat", "Schemas", new.path, "--examples", empty.path, "--format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let changes = try #require(report["changes"] as? [[String: Any]])
        for schema in ["payment-account", "customer-profile"] {
            let change = try #require(changes.first { $0["schema"] as? String == schema }, "\(changes)")
            let witness = try #require(change["witness"] as? [String: Any], "\(change)")
            #expect(witness["source"] is NSNull)
            let shown = try JSONSerialization.data(withJSONObject: witness["payload"] as Any)
            #expect(!String(decoding: shown, as: UTF8.self).contains("4111111111111111"))
            #expect(String(decoding: shown, as: UTF8.self).contains("1111"))
        }
        #expect(!result.out.contains("4111111111111111"))
    }

    @Test func againstARevisionComparesTheFolderAsItWasThere() throws {
        // A team's repository, its schemas in a folder of its own, committed; then a maximum added and a schema
        // removed in the working tree.
        let repository = FileManager.default.temporaryDirectory.appendingPathComponent(
            "compat-git-\(UUID().uuidString)")
        let folder = repository.appendingPathComponent("config/schemas")
        try FileManager.default.createDirectory(
            at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: repository) }
        try FileManager.default.copyItem(at: CLI.repository.appendingPathComponent("Schemas"), to: folder)
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments
            process.currentDirectoryURL = repository
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        try git("init", "-q")
        try git("add", "-A")
        try git("commit", "-q", "-m", "schemas")
        let unchanged = try CLI.run(["compat", "--against", "HEAD", "config/schemas"], in: repository)
        #expect(
            unchanged.status == 0 && unchanged.out == "compat: 0 changes, 0 breaking (0 error, 0 warning, 0 info)\n")
        let file = folder.appendingPathComponent("card-create.json")
        try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: #""key": "programName","#, with: #""key": "programName", "maxLength": 5,"#)
            .write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("card-list-query.json"))
        let examples = CLI.repository.appendingPathComponent("Examples").path
        let result = try CLI.run(
            ["compat", "--against", "HEAD", "config/schemas", "--examples", examples], in: repository)
        #expect(result.status == 1, "\(result.err)")
        // What the working tree changed is named as it is there; what it removed, as it was at the revision.
        #expect(
            result.out.contains(
                "config/schemas/card-create.json:23:42: error: card-create /programName: max-length-added (request, breaking)"
            ),
            "\(result.out)")
        #expect(
            result.out.contains(
                "HEAD:config/schemas/card-list-query.json:1:1: error: card-list-query (schema): schema-removed"))
        #expect(result.out.contains("  witness from \(examples)/card-create/"))
        // A folder outside the repository's tree, and a revision that is not there, are usage errors.
        let outside = try CLI.run(
            ["compat", "--against", "HEAD", CLI.repository.appendingPathComponent("Schemas").path], in: repository)
        #expect(outside.status == 2 && outside.err.contains("give the new schemas as a folder inside the repository"))
        let unknown = try CLI.run(["compat", "--against", "no-such-revision", "config/schemas"], in: repository)
        #expect(unknown.status == 2 && unknown.err.contains("cannot read config/schemas at 'no-such-revision'"))
    }

    @Test(
        arguments: [
            (["compat"], "Give the old and the new schemas"),
            (["compat", "Schemas", "/no/such/folder"], "'/no/such/folder' does not exist"),
            (["compat", "Schemas", "README.md"], "'README.md' is not a catalogue"),
            (["compat", "--against", "HEAD", "a", "b"], "With --against REV, give at most"),
        ] as [([String], String)])
    func usageAndUnreadableSidesExitTwo(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains(message), "\(result.err)")
    }

    @Test func schemasThatDoNotCompileExitTwoWithTheirProblems() throws {
        let new = try schemas(editing: "card-create.json") {
            $0.replacingOccurrences(of: #""dataType": "String""#, with: #""dataType": "Strung""#)
        }
        defer { try? FileManager.default.removeItem(at: new) }
        let result = try CLI.run(["compat", "Schemas", new.path])
        #expect(result.status == 2 && result.err.contains("card-create.json:"), "\(result.err)")
    }
}
