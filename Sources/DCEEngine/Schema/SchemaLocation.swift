/// Where an element of a schema was written: the file, the JSON Pointer inside it, and the line and column.
public struct SchemaLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The schema file's path as it was given to the loader, or `<schema-id>` for schemas held in memory.
    public var file: String
    /// The JSON Pointer of the element inside the file.
    public var pointer: String
    /// The element's line and column, when known.
    public var position: SourcePosition?

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - file: The file.
    ///   - pointer: The JSON Pointer inside it.
    ///   - position: The line and column.
    public init(file: String, pointer: String, position: SourcePosition?) {
        self.file = file
        self.pointer = pointer
        self.position = position
    }

    /// `file:line:column` (or `file` alone when the position is unknown).
    public var description: String {
        guard let position else { return file }
        return "\(file):\(position.line):\(position.column)"
    }
}
