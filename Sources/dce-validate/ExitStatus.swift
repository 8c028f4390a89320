import ArgumentParser

/// The exit statuses of `dce-validate`; scripts depend on them, so they never change meaning.
enum ExitStatus {
    /// Every payload is valid.
    static let valid = ExitCode(0)
    /// At least one payload is invalid (including a payload that is not well-formed JSON).
    static let invalid = ExitCode(1)
    /// A usage error, an unknown schema id, a schema that fails to load or compile, a file that cannot be read, or a
    /// report that cannot be written.
    static let failure = ExitCode(2)
    /// `send` only: the gateway could not be reached, or answered something that is not a valid response.
    static let unavailable = ExitCode(3)
}
