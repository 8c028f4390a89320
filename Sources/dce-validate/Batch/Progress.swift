import DCECommandLine
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress display on standard error: only on a terminal, never in a pipe or a CI log, and only
/// once a run has taken more than a second.
struct Progress {
    private let enabled: Bool
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now
    private var drawn = false

    init() {
        let environment = ProcessInfo.processInfo.environment
        enabled = isatty(STDERR_FILENO) == 1 && environment["CI"] == nil && environment["TERM"] != "dumb"
    }

    mutating func update(payloads: Int, invalid: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - start > .seconds(1), now - lastDraw > .milliseconds(100) else { return }
        lastDraw = now
        let seconds = Double((now - start).components.attoseconds) / 1e18 + Double((now - start).components.seconds)
        let rate = Int(Double(payloads) / max(seconds, 0.001))
        let line = "\r\u{1B}[K\(payloads.formatted()) payloads, \(invalid.formatted()) invalid, \(rate.formatted())/s"
        Diagnostics.write(line)
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        Diagnostics.write("\r\u{1B}[K")
    }
}
