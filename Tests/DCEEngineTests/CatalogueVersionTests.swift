import DCEEngine
import DCEEnvelope
import Testing

/// Catalogue versions: decimal numbers separated by dots, compared number by number.
struct CatalogueVersionTests {
    private func version(_ text: String) throws -> CatalogueVersion { try CatalogueVersion(text) }

    @Test(arguments: [
        ("2026.11.10", "2026.11.9"), ("10", "9"), ("2", "1.99"), ("1.0.1", "1"), ("2027", "2026.12.31"), ("0.1", "0"),
        ("100000000000000000000000000001", "100000000000000000000000000000"), ("1.10", "1.9"),
    ])
    func newerVersionsCompareGreater(newer: String, older: String) throws {
        #expect(try version(newer) > version(older))
        #expect(try version(older) < version(newer))
        #expect(try version(newer) != version(older))
    }

    @Test(arguments: [("2", "2.0"), ("2", "2.0.0"), ("2026.01.05", "2026.1.5"), ("0", "0.0"), ("007", "7")])
    func versionsThatDifferOnlyInHowTheyAreWrittenAreEqual(left: String, right: String) throws {
        #expect(try version(left) == version(right))
        #expect(try !(version(left) < version(right)) && !(version(right) < version(left)))
        #expect(try Set([version(left), version(right)]).count == 1)
        #expect(try version(left).description == left)
    }

    @Test(arguments: [
        "", ".", "1.", ".1", "1..2", "v2", "2.1-beta", "1.a", "-1", " 1", "1 ", "1e3", "+1", "1,2", "١", "１",
    ])
    func anythingElseIsNotAVersion(text: String) {
        let error = #expect(throws: CatalogueError.self) { try CatalogueVersion(text) }
        #expect(error?.code == .invalidVersion)
        #expect(error?.message.contains("decimal numbers separated by dots") == true)
    }
}
