// The tool the DCEModelsGenerator build plugin runs: the Swift models of a target's schema folder, in one file, as
// its dce-models.json asks. Arguments: --schemas DIR --config FILE --output FILE. Exit status 0 written, 1 the schemas
// or the configuration cannot be read or a name cannot be given (each problem on standard error), 2 a usage error.
import DCEEngine
import DCESwiftGeneration
import Foundation

/// Prints to standard error and exits.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard ["--schemas", "--config", "--output"].contains(name), let value = arguments.popFirst() else {
        fail("usage: dce-generate-swift --schemas DIR --config FILE --output FILE", status: 2)
    }
    options[name] = value
}
guard let schemas = options["--schemas"], let config = options["--config"], let output = options["--output"] else {
    fail("usage: dce-generate-swift --schemas DIR --config FILE --output FILE", status: 2)
}
let configuration: SwiftModelGenerator.Configuration
do {
    configuration = try JSONDecoder().decode(
        SwiftModelGenerator.Configuration.self, from: Data(contentsOf: URL(fileURLWithPath: config)))
} catch {
    fail("\(config): error: not a generator configuration: \(error)", status: 1)
}
do {
    let file = try SwiftModelGenerator(configuration: configuration).file(
        named: URL(fileURLWithPath: output).lastPathComponent, from: .directory(URL(fileURLWithPath: schemas)))
    let data = Data(file.contents.utf8)
    // Written only when it changed, so that what compiles it does not run again for nothing.
    if FileManager.default.contents(atPath: output) != data {
        try data.write(to: URL(fileURLWithPath: output), options: .atomic)
    }
} catch let failure as SwiftModelGenerator.Failure {
    fail(failure.problems.map { "error: \($0)" }.joined(separator: "\n"), status: 1)
} catch {
    fail("\(output): error: cannot write the models: \(error)", status: 1)
}
