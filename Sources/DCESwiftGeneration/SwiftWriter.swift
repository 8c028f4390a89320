/// Writes declarations as Swift source: `Codable`, `Hashable` and `Sendable` types with a memberwise initializer, each
/// writing itself for the engine (`DocumentWritable`), documented from the schema's English names and descriptions.
struct SwiftWriter {
    /// `public`, `package` or `internal`.
    let access: String
    private var lines: [String] = []
    private var indent = 0

    init(access: String) {
        self.access = access
    }

    /// The declaration keyword prefix: the access level, left out for `internal`.
    private var modifier: String { access == "internal" ? "" : access + " " }

    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: indent) + text)
    }

    /// A documentation comment, its paragraphs wrapped to the line length.
    mutating func documentation(_ paragraphs: [String], marker: String = "///") {
        let width = 120 - indent * 4 - marker.count - 1
        for (offset, paragraph) in paragraphs.enumerated() {
            if offset > 0 { line(marker) }
            var current = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                if !current.isEmpty, current.count + 1 + word.count > width {
                    line(marker + " " + current)
                    current = ""
                }
                current += (current.isEmpty ? "" : " ") + word
            }
            if !current.isEmpty { line(marker + " " + current) }
        }
    }

    private static func paragraphs(_ documentation: Documentation, fallback: String) -> [String] {
        var result = [Self.sentence(documentation.name ?? fallback)]
        if let description = documentation.description, !description.isEmpty { result.append(description) }
        return result
    }

    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }

    // MARK: Declarations

    mutating func write(_ declaration: Declaration) {
        switch declaration {
        case .structure(let structure): write(structure)
        case .openEnum(let enumeration): write(enumeration)
        }
    }

    mutating func write(_ structure: Structure) {
        documentation(Self.paragraphs(structure.documentation, fallback: structure.name))
        let conformances =
            structure.schemaID != nil
            ? "ValidatableRequest, Codable, Hashable" : "DocumentWritable, Codable, Hashable, Sendable"
        line("\(modifier)struct \(structure.name): \(conformances) {")
        indent += 1
        if let schemaID = structure.schemaID {
            line("/// `\(schemaID)`.")
            line("\(modifier)static let schemaID = \(ModelBuilder.literal(schemaID))")
            line()
        }
        if let element = structure.elementType {
            writeArrayBody(structure, element: element)
        } else {
            writeObjectBody(structure)
        }
        for declaration in structure.nested {
            line()
            write(declaration)
        }
        indent -= 1
        line("}")
    }

    private mutating func writeObjectBody(_ structure: Structure) {
        for member in structure.members {
            documentation(Self.paragraphs(member.documentation, fallback: member.key))
            let initial = access == "internal" ? Self.propertyDefault(member).map { " = " + $0 } ?? "" : ""
            line("\(modifier)var \(member.name): \(member.declaredType)\(initial)")
        }
        for member in structure.members where member.masked {
            line()
            let name = "masked" + SwiftNames.typeName(SwiftNames.bare(member.name))
            documentation(["`\(SwiftNames.bare(member.name))` as the masking policy shows it (`Masking.mask(_:)`)."])
            if member.presence == .required {
                line("\(modifier)var \(name): String { Masking.mask(\(member.name).revealed) }")
            } else {
                line("\(modifier)var \(name): String? { \(member.name).map { Masking.mask($0.revealed) } }")
            }
        }
        if access != "internal" { writeInitializer(structure) }
        let renamed = structure.members.contains { SwiftNames.bare($0.name) != $0.key }
        let numeric = structure.members.contains(where: \.numericBoolean)
        if renamed || numeric {
            line()
            line("enum CodingKeys: String, CodingKey {")
            indent += 1
            for member in structure.members {
                let bare = SwiftNames.bare(member.name)
                line("case \(member.name)" + (bare == member.key ? "" : " = " + ModelBuilder.literal(member.key)))
            }
            indent -= 1
            line("}")
        }
        if numeric { writeNumericBooleanDecoder(structure) }
        line()
        line("/// Writes the value for the engine, member by member in the schema's order.")
        line("///")
        line("/// - Parameter writer: The writer.")
        line("\(modifier)func write(to writer: inout DocumentWriter) {")
        indent += 1
        line("writer.beginObject()")
        for member in structure.members {
            let key = ModelBuilder.literal(member.key)
            let value = "self.\(SwiftNames.bare(member.name))"
            // Scalars and patches go through the writer's own overloads; anything else writes itself where it is
            // stored, so that it is not copied to be passed along.
            if Self.scalars.contains(member.type) || member.presence == .patch {
                line("writer.member(\(key), \(value))")
            } else if member.presence == .required {
                line("writer.key(\(key))")
                line("\(value).write(to: &writer)")
            } else {
                line("if \(value) != nil {")
                line("    writer.key(\(key))")
                line("    \(value)?.write(to: &writer)")
                line("}")
            }
        }
        line("writer.endObject()")
        indent -= 1
        line("}")
    }

    /// The types the writer has a member overload of its own for.
    private static let scalars: Set<String> = ["String", "Bool", "Int", "Double", "SensitiveString"]

    private static func propertyDefault(_ member: Member) -> String? {
        if let value = member.defaultValue { return value }
        return member.presence == .patch ? ".absent" : nil
    }

    private mutating func writeInitializer(_ structure: Structure) {
        line()
        let optional = structure.members.contains { $0.presence != .required }
        documentation(["Creates a value" + (optional ? "; a member left `nil` (or `.absent`) is not sent." : ".")])
        if !structure.members.isEmpty {
            line("///")
            line("/// - Parameters:")
            for member in structure.members {
                let text = Self.sentence(member.documentation.name ?? member.key)
                line("///   - \(SwiftNames.bare(member.name)): \(text)")
            }
        }
        let parameters = structure.members.map { member -> String in
            let initial: String
            switch member.presence {
            case .required: initial = member.defaultValue.map { " = " + $0 } ?? ""
            case .optional: initial = " = nil"
            case .patch: initial = " = .absent"
            }
            return "\(member.name): \(member.declaredType)\(initial)"
        }
        line("\(modifier)init(\(parameters.joined(separator: ", "))) {")
        indent += 1
        for member in structure.members {
            line("self.\(SwiftNames.bare(member.name)) = \(member.name)")
        }
        indent -= 1
        line("}")
    }

    private mutating func writeNumericBooleanDecoder(_ structure: Structure) {
        line()
        line("/// Decodes a value; its Booleans also accept 0 and 1, as the schema does (`numericBooleans`).")
        line("///")
        line("/// - Parameter decoder: The decoder.")
        line("/// - Throws: `DecodingError` when a member has the wrong type.")
        line("\(modifier)init(from decoder: any Decoder) throws {")
        indent += 1
        line("let container = try decoder.container(keyedBy: CodingKeys.self)")
        for member in structure.members {
            let name = SwiftNames.bare(member.name)
            let call: String
            switch (member.presence, member.numericBoolean) {
            case (.required, true): call = "try container.decodeNumericBoolean(forKey: .\(name))"
            case (_, true): call = "try container.decodeNumericBooleanIfPresent(forKey: .\(name))"
            case (.required, false): call = "try container.decode(\(member.type).self, forKey: .\(name))"
            case (.optional, false): call = "try container.decodeIfPresent(\(member.type).self, forKey: .\(name))"
            case (.patch, false): call = "try container.decode(Patch<\(member.type)>.self, forKey: .\(name))"
            }
            line("self.\(name) = \(call)")
        }
        indent -= 1
        line("}")
    }

    private mutating func writeArrayBody(_ structure: Structure, element: String) {
        let element = "[\(element)]"
        line("/// The elements, in order.")
        line("\(modifier)var elements: \(element)")
        if access != "internal" {
            line()
            line("/// Creates a value.")
            line("///")
            line("/// - Parameter elements: The elements, in order.")
            line("\(modifier)init(elements: \(element)) {")
            line("    self.elements = elements")
            line("}")
        }
        line()
        line("/// Decodes the array.")
        line("///")
        line("/// - Parameter decoder: The decoder.")
        line("/// - Throws: `DecodingError` when an element has the wrong type.")
        line("\(modifier)init(from decoder: any Decoder) throws {")
        line("    elements = try decoder.singleValueContainer().decode(\(element).self)")
        line("}")
        line()
        line("/// Encodes the array.")
        line("///")
        line("/// - Parameter encoder: The encoder.")
        line("/// - Throws: When the encoder fails.")
        line("\(modifier)func encode(to encoder: any Encoder) throws {")
        line("    var container = encoder.singleValueContainer()")
        line("    try container.encode(elements)")
        line("}")
        line()
        line("/// Writes the array for the engine.")
        line("///")
        line("/// - Parameter writer: The writer.")
        line("\(modifier)func write(to writer: inout DocumentWriter) {")
        line("    elements.write(to: &writer)")
        line("}")
    }

    mutating func write(_ enumeration: OpenEnumeration) {
        documentation(Self.paragraphs(enumeration.documentation, fallback: enumeration.name))
        line("///")
        line(
            "/// Open to values a newer service adds: such a value, or the schema's `UNKNOWN`, is ``unknown(_:)`` with")
        line("/// the raw value as sent.")
        line("\(modifier)enum \(enumeration.name): OpenEnum {")
        indent += 1
        for option in enumeration.cases {
            line("/// `\(option.rawValue)`.")
            line("case \(option.name)")
        }
        line("/// A value these models do not know, or the schema's `UNKNOWN`: the raw value as sent.")
        line("case unknown(String)")
        line()
        line("/// The values these models know, in the schema's order.")
        let all = enumeration.cases.map { "." + $0.name }.joined(separator: ", ")
        line("\(modifier)static let allKnownCases: [\(enumeration.name)] = [\(all)]")
        line()
        line("/// The raw value: the schema's, or the one sent for ``unknown(_:)``.")
        line("\(modifier)var rawValue: String {")
        indent += 1
        line("switch self {")
        for option in enumeration.cases {
            line("case .\(option.name): \(ModelBuilder.literal(option.rawValue))")
        }
        line("case .unknown(let rawValue): rawValue")
        line("}")
        indent -= 1
        line("}")
        indent -= 1
        line("}")
    }
}
