import Foundation
import ServiceLifecycle

/// `--watch`: looks at the schema folder's files a few times a second and has the state compile them again when one
/// changes (its size, its time, or a file added or removed), until the server shuts down.
struct SchemaWatcher: Service {
    let state: PreviewState
    let directory: String

    func run() async throws {
        var last = Self.snapshot(of: directory)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let now = Self.snapshot(of: directory)
            guard now != last else { continue }
            last = now
            await state.reload()
        }
    }

    /// Every JSON file under the folder, with its size and modification time.
    static func snapshot(of directory: String) -> [String: [Double]] {
        let manager = FileManager.default
        var files: [String: [Double]] = [:]
        guard let paths = try? manager.subpathsOfDirectory(atPath: directory) else { return files }
        for path in paths where path.hasSuffix(".json") {
            guard let attributes = try? manager.attributesOfItem(atPath: directory + "/" + path) else { continue }
            let size = (attributes[.size] as? NSNumber)?.doubleValue ?? -1
            let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            files[path] = [size, time]
        }
        return files
    }
}
