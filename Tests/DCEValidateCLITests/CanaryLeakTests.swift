import DCEEngine
import DCEForms
import DCEReports
import DCETestSupport
import Foundation
import Testing

/// Canary card data pushed through every output that exists: the five report formats, NDJSON batches, the API's
/// reports and descriptions, reader and schema errors, lint, export, check-input, describe and masked copies, and runs
/// against a gateway's catalogue. The bytes never contain a canary.
@Suite(.serialized) struct CanaryLeakTests {
    static let pan = "4111111111111111"
    static let panPrefix = "41111111"
    static let pin = "8264"
    static let cvv = "739"
    static let canaries = [pan, panPrefix, pin, cvv]

    static let schema = """
        {"id": "payment-card", "fields": [
          {"key": "pan", "name": "Card number", "dataType": "String", "required": true, "format": "luhn",
           "maskingRequired": true, "pciEncryptionRequired": true, "storageRestricted": true, "minLength": 16, "maxLength": 19},
          {"key": "cvv", "name": "Security code", "dataType": "String", "storageRestricted": true,
           "additionalDataValidations": [{"regex": "^[0-9]{3,4}$"}], "enum": ["000"]},
          {"key": "pin", "name": "PIN", "dataType": "String", "pciEncryptionRequired": true, "storageRestricted": true,
           "additionalDataValidations": [{"regex": "^[0-9]{4}$"}], "maxLength": 3},
          {"key": "holder", "name": "Card holder", "dataType": "String", "minLength": 2}
        ]}
        """

    /// Each payload breaks a rule on a field that holds a canary, or hides canaries in malformed JSON.
    static let payloads = [
        #"{"pan": "4111111111111112", "cvv": "739", "pin": "8264"}"#,  // luhn, enum, maxLength (canary-adjacent PAN)
        #"{"pan": 4111111111111111, "cvv": 739, "pin": 8264}"#,  // wrong types
        #"{"pan": "4111111111111111x", "cvv": "7399x", "pin": "8264 "}"#,
        #"{"pan": "4111111111111111", "pan": "4111111111111111", "cvv": "739", "cvv": "739"}"#,  // duplicate keys
        #"{"pan": "4111111111111111", "cvv": "739", "extra": "8264", "holder": "4"}"#,
        #"{"pan": "4111111111111111", "cvv": "739", "pin": "8264"]"#,  // malformed
        #"{"pan": "41111111111111\u0031\u0031", "cvv": "7\u00339x"}"#,
        "{\"pan\": \"4111111111111111\u{1}\", \"pin\": \"8264\"}",
        #"{"pan": "4111111111111111", "pin": 8264e0, "cvv": [739]}"#,
        #"{"pan": "4111111111111111", "cvv": "739", "pin": "8264", "holder": {"pan": "4111111111111111"}}"#,
    ]

    /// Every payload, one a line.
    static var stream: Data {
        Data(payloads.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n").utf8)
    }

    /// No canary in the output, apart from the scratch folder's random name (`dce-test-<UUID>`), whose hex digits
    /// can hold a 3-digit CVV by chance and once failed this test with nothing leaked, and apart from `ignoring`
    /// (a gateway's URL, whose port can hold one too).
    private func expectClean(_ bytes: Data, _ context: String, ignoring: String? = nil) {
        var text = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(
                of: #"dce-test-[0-9A-Fa-f-]{36}"#, with: "dce-test-<folder>", options: .regularExpression)
        if let ignoring { text = text.replacingOccurrences(of: ignoring, with: "<ignored>") }
        for canary in Self.canaries {
            #expect(!text.contains(canary), "\(canary) leaked in \(context): \(text.prefix(400))")
        }
    }

    private func withSchemas(_ body: (URL) throws -> Void) throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.schema.utf8).write(to: directory.appendingPathComponent("payment-card.json"))
        try body(directory)
    }

    @Test func everyReportFormatOfEveryPayload() throws {
        try withSchemas { schemas in
            for (offset, payload) in Self.payloads.enumerated() {
                for format in ReportFormat.allCases {
                    let result = try CLI.run(
                        ["-", "--schema", "payment-card", "--schemas", schemas.path, "--format", format.rawValue],
                        stdin: Data(payload.utf8))
                    #expect(result.status == 1, "payload \(offset) must be invalid")
                    expectClean(result.allBytes, "payload \(offset) as \(format)")
                }
            }
        }
    }

    /// `mask` and the masked copies `--attach-masked` puts into junit and sarif reports: masked, withheld, or (for
    /// malformed JSON) not made at all.
    @Test func maskedCopiesOfEveryPayload() throws {
        try withSchemas { schemas in
            for (offset, payload) in Self.payloads.enumerated() {
                let mask = try CLI.run(
                    ["mask", "-", "--schema", "payment-card", "--schemas", schemas.path], stdin: Data(payload.utf8))
                #expect(mask.status == 0 || mask.status == 2, "payload \(offset): \(mask.status)")
                expectClean(mask.allBytes, "payload \(offset) masked")
                for format in ["junit", "sarif"] {
                    let result = try CLI.run(
                        [
                            "-", "--schema", "payment-card", "--schemas", schemas.path, "--format", format,
                            "--attach-masked",
                        ], stdin: Data(payload.utf8))
                    #expect(result.status == 1, "payload \(offset) must be invalid")
                    expectClean(result.allBytes, "payload \(offset) as \(format) with its masked copy")
                }
            }
        }
    }

    /// `compat`'s witnesses: a payload of the examples holding a card number shows it masked, in text and JSON.
    @Test func compatWitnesses() throws {
        try withSchemas { schemas in
            let scratch = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let new = scratch.appendingPathComponent("new")
            let examples = scratch.appendingPathComponent("examples/payment-card")
            try FileManager.default.createDirectory(at: new, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
            try Data(#"{"pan": "\#(Self.pan)", "cvv": "000", "holder": "Ivan Petrov"}"#.utf8)
                .write(to: examples.appendingPathComponent("valid.json"))
            /// Compares the schemas with `holder` made as `edit` says, in every format: what it shows holds `shown`
            /// and no canary.
            func compare(holder edit: String, shows shown: String, what: String) throws {
                try Data(Self.schema.replacingOccurrences(of: #""minLength": 2}"#, with: edit).utf8)
                    .write(to: new.appendingPathComponent("payment-card.json"))
                for format in ["text", "json", "sarif"] {
                    let result = try CLI.run([
                        "compat", schemas.path, new.path, "--examples",
                        scratch.appendingPathComponent("examples").path, "--format", format,
                    ])
                    #expect(result.status == 1 && result.out.contains("min-length-increased"), "\(result.err)")
                    #expect(result.out.contains(shown), "\(result.out)")
                    expectClean(result.allBytes, "compat's \(what) as \(format)")
                }
            }
            try compare(holder: #""minLength": 20}"#, shows: "•••• •••• •••• 1111", what: "witness")
            // An override conditioned on the card number: the values compared there are never the examples'.
            try compare(
                holder:
                    #""minLength": 2, "overrides": [{"when": {"field": "/pan", "matches": "^4"}, "minLength": 20}]}"#,
                shows: "/pan", what: "given value")
        }
    }

    @Test func ndjsonBatchesAndReportFiles() throws {
        try withSchemas { schemas in
            let directory = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let stream = Self.stream
            let junit = directory.appendingPathComponent("r.xml")
            let sarif = directory.appendingPathComponent("r.sarif")
            let result = try CLI.run(
                [
                    "-", "--ndjson", "--schema", "payment-card", "--schemas", schemas.path, "--format", "text",
                    "--format", "junit", "--output", junit.path, "--format", "sarif", "--output", sarif.path,
                ],
                stdin: stream)
            #expect(result.status == 1)
            expectClean(result.allBytes, "NDJSON text")
            expectClean(try Data(contentsOf: junit), "NDJSON JUnit file")
            expectClean(try Data(contentsOf: sarif), "NDJSON SARIF file")
        }
    }

    /// The schema served by a gateway (`--catalogue`): every report format, which names the catalogue, and the
    /// warning and note of a run with the gateway out of reach.
    @Test func reportsOfARunAgainstTheGatewaysCatalogue() throws {
        try withSchemas { schemas in
            let scratch = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let gateway = try GatewayProcess(in: scratch, options: ["--schemas", schemas.path])
            defer { gateway.stop() }
            let arguments = [
                "-", "--ndjson", "--schema", "payment-card", "--catalogue", gateway.url.absoluteString,
                "--catalogue-key",
                gateway.signingKey.path, "--catalogue-cache", scratch.appendingPathComponent("cache").path,
            ]
            for format in ReportFormat.allCases {
                let result = try CLI.run(arguments + ["--format", format.rawValue], stdin: Self.stream)
                #expect(result.status == 1, "\(format): \(result.err)")
                expectClean(result.allBytes, "NDJSON against the gateway's catalogue as \(format)")
            }
            gateway.stop()
            let offline = try CLI.run(arguments, stdin: Self.stream)
            #expect(
                offline.status == 1 && offline.err.contains("note: using catalogue 1 from the cache"), "\(offline.err)")
            expectClean(offline.allBytes, "NDJSON against the cached catalogue", ignoring: gateway.url.absoluteString)
        }
    }

    @Test func theAPIsReportsErrorsAndDescriptions() throws {
        let validator = try Validator(source: .documents(["payment-card": Array(Self.schema.utf8)]))
        for payload in Self.payloads {
            let report = try validator.validate(json: Array(payload.utf8), schema: "payment-card")
            #expect(!report.valid)
            expectClean(try JSONEncoder().encode(report), "encoded report")
            expectClean(Data("\(report) \(String(reflecting: report))".utf8), "report descriptions")
            do {
                _ = try JSONDocument(bytes: Array(payload.utf8))
            } catch {
                expectClean(Data("\(error) \(error.message)".utf8), "reader error")
            }
        }
        #expect(Masking.mask(Self.pan) == "•••• •••• •••• 1111")
        expectClean(Data(Masking.mask(Self.pan).utf8), "the masked PAN")
    }

    /// `check-input` judges what is typed into a sensitive field and prints only the verdict, from an argument or
    /// standard input, in both formats, for every kind of verdict and for a field that does not exist; nor does it
    /// print a value `--given` for another field.
    @Test func checkInputNeverPrintsWhatWasTyped() throws {
        try withSchemas { schemas in
            for field in ["/pan", "/cvv", "/pin", "/nope"] {
                for typed in [Self.pan, Self.panPrefix, Self.pan + "x", Self.cvv, Self.pin, Self.pin + Self.pin] {
                    for format in ["text", "json"] {
                        let call = [
                            "check-input", "--schema", "payment-card", "--schemas", schemas.path, "--field", field,
                            "--format", format,
                        ]
                        expectClean(
                            try CLI.run(call + ["-"], stdin: Data((typed + "\n").utf8)).allBytes,
                            "check-input \(field) \(format)")
                        expectClean(try CLI.run(call + [typed]).allBytes, "check-input \(field) \(format) argument")
                        // A value given for another field (or for one that does not exist) is not printed either.
                        let given = ["--given", "/pan=\(typed)", "--given", "/nope=\(typed)"]
                        expectClean(
                            try CLI.run(call + given + [Self.cvv]).allBytes, "check-input \(field) \(format) --given")
                        expectClean(
                            try CLI.run(call + ["--given", typed, Self.cvv]).allBytes,
                            "check-input \(field) \(format) --given malformed")
                    }
                }
            }
        }
    }

    /// `check-input --draft` validates a draft full of card data with the typed value in place and prints only the
    /// verdict: for every kind of verdict, a draft that is not JSON (its error names a line and column, never the
    /// bytes there) and one that cannot hold the field.
    @Test func checkInputWithADraftNeverPrintsTheDraftOrWhatWasTyped() throws {
        try withSchemas { schemas in
            let directory = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let drafts = [
                #"{"pan": "\#(Self.pan)", "cvv": "\#(Self.cvv)", "pin": "\#(Self.pin)"}"#,
                #"{"pan": "\#(Self.pan)x", "cvv": "\#(Self.cvv)\#(Self.cvv)", "pin": [\#(Self.pin)]}"#,
                #"{"pan": "\#(Self.pan)", "cvv": \#(Self.cvv)"#,
                #"["\#(Self.pan)", "\#(Self.cvv)"]"#,
            ]
            for (index, draft) in drafts.enumerated() {
                let file = directory.appendingPathComponent("draft-\(index).json")
                try Data(draft.utf8).write(to: file)
                // What is typed is the other test's concern: here the draft's card data, under each kind of verdict
                // (valid, incomplete, invalid, no such field) and both formats.
                for (field, typed, format) in [
                    ("/pan", Self.pan, "json"), ("/pan", Self.panPrefix, "text"), ("/cvv", Self.pan + "x", "json"),
                    ("/pin", Self.pin, "text"), ("/nope", Self.cvv, "json"),
                ] {
                    let call = [
                        "check-input", "--schema", "payment-card", "--schemas", schemas.path, "--field", field,
                        "--format", format, "--draft", file.path, typed,
                    ]
                    expectClean(try CLI.run(call).allBytes, "check-input --draft \(index) \(field) \(format)")
                }
            }
        }
    }

    /// `describe --given` reads card data given for other fields and prints none of it, in both formats, for a field
    /// that exists and for one that does not.
    @Test func describeNeverPrintsAGivenValue() throws {
        try withSchemas { schemas in
            for format in ["text", "json"] {
                for typed in Self.canaries {
                    let call = ["describe", "--schema", "payment-card", "--schemas", schemas.path, "--format", format]
                    expectClean(
                        try CLI.run(call + ["--given", "/pan=\(typed)", "--given", "/cvv=\(typed)"]).allBytes,
                        "describe \(format) --given")
                    expectClean(
                        try CLI.run(call + ["--given", "/nope=\(typed)"]).allBytes, "describe \(format) --given unknown"
                    )
                    expectClean(
                        try CLI.run(call + ["--given", typed]).allBytes, "describe \(format) --given malformed")
                }
            }
        }
    }

    @Test func schemaErrorsLintAndExportOfASchemaWhoseDefaultIsACanary() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = Self.schema.replacingOccurrences(
            of: #""minLength": 16, "maxLength": 19}"#,
            with: #""minLength": 16, "maxLength": 19, "defaultValue": "4111111111111112"}"#)
        try Data(broken.utf8).write(to: directory.appendingPathComponent("payment-card.json"))
        do {
            _ = try Validator(source: .documents(["payment-card": Array(broken.utf8)]))
            Issue.record("a default that fails its own format must be refused")
        } catch {
            expectClean(Data("\(error)".utf8), "schema error")
        }
        let lint = try CLI.run(["lint", directory.path])
        #expect(lint.status == 1)
        expectClean(lint.allBytes, "lint")
        let export = try CLI.run([
            "export", "--schema", "payment-card", "--schemas", directory.path, "--to", "json-schema",
        ])
        expectClean(export.allBytes, "export")
    }
}
