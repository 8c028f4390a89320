import Foundation
import Testing

/// The files a team looks for before adopting the package: an OSI licence, a NOTICE that names every piece of
/// third-party data the repository carries, and a guide for contributors.
struct RepositoryFilesTests {
    private func text(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theLicenceIsApache2() throws {
        let licence = try text("LICENSE")
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        #expect(try text("NOTICE").contains("Licensed under the Apache License, Version 2.0"))
    }

    /// Every folder with a licence file of its own, and every reference data file, is named in NOTICE.
    @Test func noticeNamesEveryThirdPartyFile() throws {
        let notice = try text("NOTICE")
        let root = Fixtures.repository
        var named: [String] = []
        for top in ["Tests", "Schemas", "Sources", "Examples"] {
            let enumerator = FileManager.default.enumerator(
                at: root.appendingPathComponent(top), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                let relative = String(url.path.dropFirst(root.path.count + 1))
                if ["LICENSE", "LICENSE.md", "COPYING"].contains(url.lastPathComponent) {
                    named.append(String(relative.dropLast(url.lastPathComponent.count)))
                } else if relative.hasPrefix("Schemas/reference/"), url.pathExtension == "json",
                    !relative.hasSuffix(".schema.json")
                {
                    named.append(relative)
                }
            }
        }
        #expect(named.count >= 7)
        for path in named {
            #expect(notice.contains(path), "NOTICE does not name \(path)")
        }
    }

    @Test func contributorsFindTheStepsForASchemaAndARule() throws {
        let guide = try text("CONTRIBUTING.md")
        #expect(guide.contains("## A new schema") && guide.contains("## A new rule kind"))
        // Every source file the guide names exists.
        for match in guide.matches(of: /`((?:Sources|Schemas|Examples|scripts)\/[A-Za-z0-9_.\/-]+)`/) {
            let path = String(match.output.1)
            guard !path.contains("<") else { continue }
            #expect(
                FileManager.default.fileExists(atPath: Fixtures.repository.appendingPathComponent(path).path), "\(path)"
            )
        }
    }
}
