package import DCEEngine
import Foundation

extension TermBook {
    /// The commands' words: describe's notes (`describe.*`, `hint.*`), check-input's verdicts (`input.*`), the step
    /// summary's columns (`step.*`) and the preview's page (`preview.*`), from `Terms/` of this target's resources.
    package static let commandLine = TermBook(folder: Bundle.module.url(forResource: "Terms", withExtension: nil))
}
