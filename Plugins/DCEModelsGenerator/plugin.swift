import Foundation
import PackagePlugin

/// Generates the Swift models of a target's schemas when the target builds, as swift-openapi-generator's plugin does
/// for an OpenAPI document: the target holds `dce-models.json` (which schemas, the access level, the imports) and a
/// `Schemas` folder; the models are one file in the build's own folder, compiled with the target's sources.
@main
struct DCEModelsGenerator: BuildToolPlugin {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let directory = target.directoryURL
        let configuration = directory.appending(path: "dce-models.json")
        let schemas = directory.appending(path: "Schemas")
        guard FileManager.default.fileExists(atPath: configuration.path) else {
            throw Failure(
                description: "\(target.name): DCEModelsGenerator needs dce-models.json beside the target's sources "
                    + #"(for example {"accessLevel": "internal"}) and its schemas in Schemas/"#)
        }
        let schemaFiles = try FileManager.default.contentsOfDirectory(
            at: schemas, includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedModels.swift")
        return [
            .buildCommand(
                displayName: "Generating the Swift models of \(target.name)'s schemas",
                executable: try context.tool(named: "dce-generate-swift").url,
                arguments: ["--schemas", schemas.path, "--config", configuration.path, "--output", output.path],
                inputFiles: [configuration] + schemaFiles,
                outputFiles: [output])
        ]
    }
}
