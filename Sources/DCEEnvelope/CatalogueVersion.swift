/// The version of a schema catalogue: decimal numbers separated by dots, such as `2026.11.10` or `7`.
///
/// Versions compare number by number, each by its value: `2026.11.10` is newer than `2026.11.9`, `10` newer than
/// `9`. Leading zeros do not count (`2026.01` is `2026.1`), and a missing number counts as zero, so `2` and `2.0`
/// are the same version. Anything else (`v2`, `2.1-beta`, `1..2`, `1.`, an empty string, digits other than ASCII
/// `0`–`9`) is not a version. Equal versions are equal and hash alike even when written differently; the text as
/// written is ``description``.
package struct CatalogueVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version as written.
    package let description: String
    /// The numbers without leading zeros (zero is empty), trailing zeros dropped: equal versions, equal numbers.
    private let numbers: [String]

    /// Reads a version.
    ///
    /// - Parameter text: The version as written.
    /// - Throws: ``CatalogueError`` (`invalidVersion`) when it is not decimal numbers separated by dots.
    package init(_ text: String) throws(CatalogueError) {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } })
        else {
            throw CatalogueError(
                code: .invalidVersion,
                message: "the catalogue version '\(text)' is not decimal numbers separated by dots, such as 2026.11.1")
        }
        var numbers = parts.map { String(decoding: $0.drop { $0 == UInt8(ascii: "0") }, as: UTF8.self) }
        while numbers.last == "" { numbers.removeLast() }
        self.description = text
        self.numbers = numbers
    }

    /// Whether `lhs` is older than `rhs`: the first number that differs decides.
    ///
    /// - Parameters:
    ///   - lhs: A version.
    ///   - rhs: Another version.
    /// - Returns: `true` when `lhs` is older.
    package static func < (lhs: CatalogueVersion, rhs: CatalogueVersion) -> Bool {
        for index in 0..<max(lhs.numbers.count, rhs.numbers.count) {
            let left = index < lhs.numbers.count ? lhs.numbers[index] : ""
            let right = index < rhs.numbers.count ? rhs.numbers[index] : ""
            // Without leading zeros, the shorter number is the smaller one; equally long ones compare digit by digit.
            if left != right {
                return left.utf8.count != right.utf8.count ? left.utf8.count < right.utf8.count : left < right
            }
        }
        return false
    }

    /// Whether two versions are the same version, however they are written.
    ///
    /// - Parameters:
    ///   - lhs: A version.
    ///   - rhs: Another version.
    /// - Returns: `true` when neither is newer.
    package static func == (lhs: CatalogueVersion, rhs: CatalogueVersion) -> Bool { lhs.numbers == rhs.numbers }

    /// Hashes the version's numbers, so that equal versions hash alike.
    ///
    /// - Parameter hasher: The hasher.
    package func hash(into hasher: inout Hasher) { hasher.combine(numbers) }
}
