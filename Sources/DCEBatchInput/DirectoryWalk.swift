import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Walks folders for payload files, following symbolic links but entering each folder once and listing each file
/// once, both known by device and inode: a link to `.` or to a parent ends instead of looping, and a file reached
/// by two paths is listed under the first in sorted order.
enum DirectoryWalk {
    /// A file or folder by device and inode: two paths with the same identity name the same thing.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// What `stat` (which follows links) says about a path.
    struct Entry {
        let identity: Identity
        let isDirectory: Bool

        /// The entry a path names, or `nil` when it names nothing (a dangling link, a missing file).
        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            identity = Identity(
                device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino))
            isDirectory = status.st_mode & S_IFMT == S_IFDIR
        }
    }

    /// The files below `base` whose names end in one of `suffixes`, in sorted order. Names that name nothing (a
    /// dangling link) are listed too, so that reading them reports why they cannot be read.
    static func files(under base: String, root: Entry, suffixes: [String]) -> [String] {
        var folders: Set<Identity> = [root.identity]
        var seenFiles: Set<Identity> = []
        var files: [String] = []
        func visit(_ folder: String) {
            for (name, entry) in sortedEntries(of: folder) {
                let path = join(folder, name)
                if let entry, entry.isDirectory {
                    if folders.insert(entry.identity).inserted { visit(path) }
                } else if suffixes.contains(where: name.hasSuffix) {
                    if let entry, !seenFiles.insert(entry.identity).inserted { continue }
                    files.append(path)
                }
            }
        }
        visit(base)
        return files
    }

    /// A folder's names with what they name, ordered so that a depth-first walk meets paths in sorted order: a
    /// folder's name sorts as if it ended in `/` (so `a.json` comes before the folder `a`'s `a/x.json`), by bytes.
    static func sortedEntries(of folder: String) -> [(name: String, entry: Entry?)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let entries = names.map { name in (name: name, entry: Entry(path: join(folder, name))) }
        func key(_ item: (name: String, entry: Entry?)) -> [UInt8] {
            Array(item.name.utf8) + (item.entry?.isDirectory == true ? [UInt8(ascii: "/")] : [])
        }
        return entries.map { (key: key($0), item: $0) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.item)
    }

    /// `folder/name`, without doubling a `/`; `name` alone for the empty folder (the current one, in a glob).
    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
