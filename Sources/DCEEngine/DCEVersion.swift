/// The package's version: what reports, `--version` and the gateway's catalogue name.
package enum DCEVersion {
    /// The version reports and `--version` print.
    package static let current = "0.1.0"
}
