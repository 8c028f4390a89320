public import DCEEngine
public import Logging

/// A swift-log handler that masks sensitive values before another handler sees them, by the one masking policy
/// (`Masking`): in the message, in every metadata value (a value under a sensitive field's key is hidden whole, one
/// `•` a character; a card number anywhere shows its masked form, `•••• •••• •••• 1111`), in the logger's own
/// metadata and in what a metadata provider adds.
///
/// ```swift
/// let redactor = Redactor(validator: validator, extraKeys: ["cvv"])
/// LoggingSystem.bootstrap { label in RedactingLogHandler(wrapping: StreamLogHandler.standardError(label: label), redactor: redactor) }
/// logger.info("card created", metadata: ["cardPin": "8264"])   // cardPin=••••
/// ```
public struct RedactingLogHandler: LogHandler {
    private var inner: any LogHandler
    /// The masking rules.
    public let redactor: Redactor
    private var storedMetadata: Logger.Metadata = [:]
    private var provider: Logger.MetadataProvider?

    /// Wraps a handler.
    ///
    /// - Parameters:
    ///   - inner: The handler that writes the redacted events; its own metadata and provider are taken over, so
    ///     that nothing reaches it unredacted.
    ///   - redactor: The masking rules.
    public init(wrapping inner: any LogHandler, redactor: Redactor) {
        var inner = inner
        self.storedMetadata = inner.metadata
        self.provider = inner.metadataProvider
        inner.metadata = [:]
        if inner.metadataProvider != nil { inner.metadataProvider = nil }
        self.inner = inner
        self.redactor = redactor
    }

    /// The level, from the wrapped handler.
    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    /// The logger's metadata, kept here and redacted when an event is written.
    public var metadata: Logger.Metadata {
        get { storedMetadata }
        set { storedMetadata = newValue }
    }

    /// The metadata provider, whose values are redacted too.
    public var metadataProvider: Logger.MetadataProvider? {
        get { provider }
        set { provider = newValue }
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { storedMetadata[key] }
        set { storedMetadata[key] = newValue }
    }

    /// Redacts an event and hands it to the wrapped handler.
    ///
    /// - Parameter event: The event.
    public func log(event: LogEvent) {
        var merged = storedMetadata
        if let provided = provider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        var redacted = event
        redacted.message = "\(redactor.redact(event.message.description))"
        redacted.metadata =
            merged.isEmpty
            ? nil
            : merged.reduce(into: [:]) { result, entry in
                result[entry.key] = redact(entry.value, sensitive: redactor.isSensitive(key: entry.key))
            }
        // The error's description may quote a value too; it travels only through the redacted message.
        redacted.error = nil
        inner.log(event: redacted)
    }

    private func redact(_ value: Logger.Metadata.Value, sensitive: Bool) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(sensitive ? Masking.hide(text) : redactor.redact(text))
        case .stringConvertible(let convertible):
            .string(
                sensitive ? Masking.hide(convertible.description) : redactor.redact(convertible.description))
        case .array(let values): .array(values.map { redact($0, sensitive: sensitive) })
        case .dictionary(let entries):
            .dictionary(
                entries.reduce(into: [:]) {
                    $0[$1.key] = redact($1.value, sensitive: sensitive || redactor.isSensitive(key: $1.key))
                })
        }
    }
}
