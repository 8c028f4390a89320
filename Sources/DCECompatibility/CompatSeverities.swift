import DCEEngine

/// A team's severities for `compat`'s checks, kept with the schemas (as oasdiff's severity levels are): lines of
/// `CHANGE-ID SEVERITY`, the severity `info`, `warning` or `error`, `#` starting a comment. `version-not-bumped`
/// names the version checks. `dce-validate compat` and the gateway's refusal to publish a breaking catalogue read the
/// same file, so both call the same changes breaking.
package struct CompatSeverities: Sendable, Hashable {
    /// The file's name in a schema folder.
    package static let fileName = "compat-severity.txt"

    /// The id that names the version checks.
    package static let versionCheck = "version-not-bumped"

    /// A line that names no check or severity.
    package struct Problem: Error, Sendable, Hashable {
        /// The line, from 1.
        package var line: Int
        package var message: String
    }

    /// The severity by change id.
    package var byChange: [String: SchemaChange.Severity]

    package init(_ byChange: [String: SchemaChange.Severity] = [:]) {
        self.byChange = byChange
    }

    /// Reads the file's text.
    ///
    /// - Throws: ``Problem`` for the first line that is not `CHANGE-ID SEVERITY` with a known id and severity.
    package init(text: String) throws(Problem) {
        var found: [String: SchemaChange.Severity] = [:]
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let id = words.first else { continue }
            let known = SchemaChange.kinds[id] != nil || id == Self.versionCheck
            guard known else {
                let hint = Suggestion.closest(to: id, in: Array(SchemaChange.kinds.keys) + [Self.versionCheck])
                throw Problem(
                    line: offset + 1,
                    message: "no change is called '\(id)'" + (hint.map { " (did you mean '\($0)'?)" } ?? ""))
            }
            guard words.count == 2, let severity = SchemaChange.Severity(rawValue: words[1]) else {
                throw Problem(
                    line: offset + 1, message: "takes 'CHANGE-ID SEVERITY', the severity info, warning or error")
            }
            found[id] = severity
        }
        byChange = found
    }

    /// The changes with the team's severities.
    package func applied(to changes: [SchemaChange]) -> [SchemaChange] {
        changes.map { change in
            var change = change
            if let severity = byChange[change.change] { change.severity = severity }
            return change
        }
    }

    /// The version checks with the team's severity for a version not bumped.
    package func applied(to checks: [VersionCheck]) -> [VersionCheck] {
        checks.map { check in
            var check = check
            if !check.bumped, let severity = byChange[Self.versionCheck] { check.severity = severity }
            return check
        }
    }
}

extension SchemaComparison {
    /// What breaks the apps that send requests at error severity (the team's severities applied): what a gateway
    /// refuses to publish unless told to. Witnesses are not looked for.
    package func requestBreaks(severities: CompatSeverities = CompatSeverities()) -> [SchemaChange] {
        severities.applied(to: changes(witnesses: false)).filter {
            $0.direction == .request && $0.breaking && $0.severity == .error
        }
    }
}

extension SchemaChange {
    /// The change in one line, without its file: `card-create /cardholderName: max-length-decreased (request,
    /// breaking): maxLength 30 → 20 [region=US]`.
    package var summary: String {
        "\(schema) \(path.isEmpty ? "(schema)" : path): \(change) (\(direction.rawValue)\(breaking ? ", breaking" : "")): "
            + detail + (scope.isEmpty ? "" : " [\(scope)]")
    }
}
