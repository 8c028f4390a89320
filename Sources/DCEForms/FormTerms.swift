package import DCEEngine
import Foundation

extension TermBook {
    /// A form's words: the titles of its groups (`group.*`), from `Terms/` of this target's resources.
    package static let forms = TermBook(folder: Bundle.module.url(forResource: "Terms", withExtension: nil))
}
