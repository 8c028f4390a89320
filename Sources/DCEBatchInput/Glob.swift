#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shell-style globs for quoted patterns: `*`, `?` and `[...]` within a path component (fnmatch), and `**` for any
/// number of folders (hidden ones excepted).
///
/// Links are followed, but each folder is entered once per place in the pattern and each file is listed once
/// (see ``DirectoryWalk``), so `l/**/*.json` ends even when `l` holds links to itself.
enum Glob {
    /// The files that match, sorted; each file once, under the first of its matching paths.
    static func expand(_ pattern: String) -> [String] {
        let absolute = pattern.hasPrefix("/")
        let components = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var walk = Walk(components: components)
        walk.visit(directory: absolute ? "/" : ".", display: absolute ? "/" : "", at: 0)
        var seen: Set<DirectoryWalk.Identity> = []
        return walk.matches.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }.compactMap {
            match in
            guard let identity = match.identity else { return match.path }
            return seen.insert(identity).inserted ? match.path : nil
        }
    }

    private struct Walk {
        let components: [String]
        var matches: [(path: String, identity: DirectoryWalk.Identity?)] = []
        /// Folders already walked from a place in the pattern: a folder met again there (through a link) would
        /// only repeat what it gave the first time.
        var visited: Set<Visit> = []

        struct Visit: Hashable {
            let folder: DirectoryWalk.Identity
            let component: Int
        }

        init(components: [String]) { self.components = components }

        /// Matches `components[index...]` inside `directory` (shown as `display`).
        mutating func visit(directory: String, display: String, at index: Int) {
            guard index < components.count, let folder = DirectoryWalk.Entry(path: directory),
                visited.insert(Visit(folder: folder.identity, component: index)).inserted
            else { return }
            let component = components[index]
            if component == "**" {
                visit(directory: directory, display: display, at: index + 1)
                for (name, entry) in DirectoryWalk.sortedEntries(of: directory)
                where !name.hasPrefix(".") && entry?.isDirectory == true {
                    visit(
                        directory: DirectoryWalk.join(directory, name), display: DirectoryWalk.join(display, name),
                        at: index)
                }
                return
            }
            let listed = component.contains(where: { "*?[".contains($0) })
            let candidates: [(name: String, entry: DirectoryWalk.Entry?)] =
                listed
                ? DirectoryWalk.sortedEntries(of: directory).filter { fnmatch(component, $0.name, FNM_PERIOD) == 0 }
                : [(component, DirectoryWalk.Entry(path: DirectoryWalk.join(directory, component)))]
            for (name, entry) in candidates {
                if index == components.count - 1 {
                    // A listed name that names nothing (a dangling link) is kept: reading it says why it fails.
                    if entry.map({ !$0.isDirectory }) ?? listed {
                        matches.append((DirectoryWalk.join(display, name), entry?.identity))
                    }
                } else if let entry, entry.isDirectory {
                    visit(
                        directory: DirectoryWalk.join(directory, name), display: DirectoryWalk.join(display, name),
                        at: index + 1)
                }
            }
        }
    }
}
