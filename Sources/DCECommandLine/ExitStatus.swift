package import ArgumentParser

/// The exit statuses of `dce-validate` and `dce-send`; scripts depend on them, so they never change meaning.
package enum ExitStatus {
    /// Every payload is valid.
    package static let valid = ExitCode(0)
    /// At least one payload is invalid (including a payload that is not well-formed JSON).
    package static let invalid = ExitCode(1)
    /// A usage error, an unknown schema id, a schema that fails to load or compile, a file that cannot be read, or a
    /// report that cannot be written.
    package static let failure = ExitCode(2)
    /// `send`: the gateway could not be reached, or answered something that is not a valid response. `--catalogue`:
    /// no catalogue to validate against (the gateway's refused or out of reach, and no valid one cached).
    package static let unavailable = ExitCode(3)
}
