/// Gives a rejected value a stable, non-reversible name, so that two rejected values can be told apart while
/// debugging without either appearing in a report. `DCEFingerprint.HMACFingerprinter` is the package's keyed one; a
/// plain hash would be reversible for values as few as PINs and card numbers.
public protocol ValueFingerprinter: Sendable {
    /// The fingerprint of a value.
    ///
    /// - Parameter value: A string value's UTF-8 bytes, or a number's text, borrowed for the call.
    /// - Returns: A short identifier that never contains the value.
    func fingerprint(_ value: Span<UInt8>) -> String
}
