import DCEEngine
import Foundation
import Testing

/// A file that cannot be read says why in the system's words, and an error made from another carries it as its cause.
///
/// The tests run as root in CI, where a file without read permission is read all the same; so the unreadable files
/// here are a directory named like a schema and a link to nothing.
struct ErrorCauseTests {
    /// A fresh directory, removed after `body`.
    private func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dce-causes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    /// The one problem compiling the source's schemas finds.
    private func problem(loading source: SchemaSource) throws -> SchemaProblem {
        let error = try #require(throws: SchemaError.self) { try Validator(source: source) }
        #expect(error.problems.count == 1, "\(error)")
        return try #require(error.problems.first)
    }

    @Test func aMissingSchemaDirectorySaysThereIsNoSuchDirectory() throws {
        try withDirectory { directory in
            let missing = directory.appendingPathComponent("no-such-schemas")
            let found = try problem(loading: .directory(missing))
            #expect(found.code == .unreadable)
            #expect(found.message == "cannot list the schema directory '\(missing.path)': No such file or directory")
            // Not a problem inside a file: a tool prints it after its own name (`dce-validate: error: …`).
            #expect(found.location.file == "")
            #expect(found.cause != nil)
        }
    }

    @Test func aSchemaFileThatIsADirectorySaysSo() throws {
        try withDirectory { directory in
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("x.json"), withIntermediateDirectories: false)
            let found = try problem(loading: .directory(directory))
            #expect(found.code == .unreadable)
            #expect(found.message == "cannot read the schema file: Is a directory")
            #expect(found.location.file.hasSuffix("/x.json"))
            #expect(found.cause != nil)
            #expect(found.description.hasSuffix("error: cannot read the schema file: Is a directory [unreadable]"))
        }
    }

    /// The directory lists the schema, so a link to nothing is a file that cannot be read, not a schema it lacks.
    @Test func aSchemaFileLinkedToNothingSaysThereIsNoSuchFile() throws {
        try withDirectory { directory in
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent("x.json").path, withDestinationPath: "/nonexistent/x.json")
            let found = try problem(loading: .directory(directory))
            #expect(found.code == .unreadable)
            #expect(found.message == "cannot read the schema file: No such file or directory")
            #expect(found.cause != nil)
        }
    }

    @Test func aReferenceDataFileThatCannotBeReadSaysWhy() throws {
        try withDirectory { directory in
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("reference/currencies.json"), withIntermediateDirectories: true)
            let found = try problem(loading: .directory(directory))
            #expect(found.code == .unreadable)
            #expect(found.message == "cannot read the reference data file: Is a directory")
            #expect(found.location.file.hasSuffix("/reference/currencies.json"))
            #expect(found.cause != nil)
        }
    }

    @Test func aSchemaThatIsNotJSONCarriesTheReadersError() throws {
        let error = try #require(throws: SchemaError.self) {
            try Fixtures.validator(["s": #"{"id": "s", "fields": ["#])
        }
        let found = try #require(error.problems.first)
        #expect(found.code == .json)
        #expect(found.cause is JSONReadError)
    }

    @Test func aProblemFoundInTheSchemaItselfHasNoCause() throws {
        let error = try #require(throws: SchemaError.self) {
            try Fixtures.validator(["s": #"{"id": "s", "fields": [{"key": "a", "dataType": "Strng"}]}"#])
        }
        #expect(error.problems.allSatisfy { $0.cause == nil })
    }

    @Test func theCauseIsLeftOutOfEqualityHashingAndCoding() throws {
        let location = SchemaLocation(file: "/s.json", pointer: "", position: nil)
        let plain = SchemaProblem(
            code: .unreadable, message: "cannot read the schema file: Is a directory", location: location)
        var caused = plain
        caused.cause = POSIXError(.EISDIR)
        #expect(caused == plain)
        #expect(Set([caused, plain]).count == 1)
        let encoded = try JSONEncoder().encode(caused)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(Set(object.keys) == ["code", "message", "location"])
        let decoded = try JSONDecoder().decode(SchemaProblem.self, from: encoded)
        #expect(decoded == plain && decoded.cause == nil)

        let error = ValidatorError(code: .encoding, message: "x")
        #expect(ValidatorError(code: .encoding, message: "x", cause: POSIXError(.EIO)) == error)
        #expect(error.cause == nil)
    }

    /// A request the encoder refuses: JSON has no NaN.
    private struct NotANumberRequest: ValidatableRequest {
        static let schemaID = "card-create"
        var amount = Double.nan
    }

    @Test func aRequestThatCannotBeEncodedCarriesTheEncodersError() throws {
        let error = try #require(throws: ValidatorError.self) {
            try Fixtures.validator.validate(NotANumberRequest())
        }
        #expect(error.code == .encoding)
        #expect(error.message == "NotANumberRequest could not be encoded as JSON")
        let cause = try #require(error.cause as? EncodingError)
        guard case .invalidValue(_, let context) = cause else {
            Issue.record("expected invalidValue, got \(cause)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["amount"])
    }

    /// A request whose own encoding fails with the secret it could not encode.
    private struct SecretRequest: ValidatableRequest {
        static let schemaID = "card-create"
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                "PIN 4711", EncodingError.Context(codingPath: [], debugDescription: "the PIN cannot be sent"))
        }
    }

    @Test func theEncodersErrorKeepsNoValueOfTheRequest() throws {
        let error = try #require(throws: ValidatorError.self) { try Fixtures.validator.validate(SecretRequest()) }
        let cause = try #require(error.cause as? EncodingError)
        #expect(!String(reflecting: cause).contains("4711"), "\(cause)")
        #expect(String(reflecting: cause).contains("the PIN cannot be sent"))
    }

    @Test func aCatalogueThatIsNotJSONCarriesTheParsersError() throws {
        let notJSON = try #require(throws: ValidatorError.self) { try MessageCatalogue(json: Data("{".utf8)) }
        #expect(notJSON.code == .invalidCatalogue)
        #expect(notJSON.cause != nil)
        let notACatalogue = try #require(throws: ValidatorError.self) { try MessageCatalogue(json: Data("[]".utf8)) }
        #expect(notACatalogue.message == notJSON.message)
        #expect(notACatalogue.cause == nil)
    }
}
