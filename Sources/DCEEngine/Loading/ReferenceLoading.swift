import Foundation

extension ReferenceData {
    /// The reference data bundled with the package, read once per process.
    static let bundledResult: Result<ReferenceData, SchemaError> = Result { () throws(SchemaError) in
        try ReferenceData.load(documents: SchemaSource.bundled.referenceDocuments(), fallback: nil, ownData: true)
    }

    /// The bundled reference data, for checks made outside a compiled schema (a format checked on its own).
    static var bundled: ReferenceData {
        switch bundledResult {
        case .success(let data): return data
        case .failure(let error): preconditionFailure("the bundled reference data is broken: \(error)")
        }
    }

    /// Loads the reference data of a source, each kind it lacks taken from the bundled data.
    ///
    /// - Parameter source: Where the schemas are.
    /// - Returns: The compiled data.
    /// - Throws: ``SchemaError`` listing every problem in the source's reference data files.
    public static func load(from source: SchemaSource) throws(SchemaError) -> ReferenceData {
        if case .bundled = source { return try bundledResult.get() }
        let documents = try source.referenceDocuments()
        if documents.isEmpty { return try bundledResult.get() }
        return try load(documents: documents, fallback: bundledResult)
    }

    /// `ownData`: the package's own data, whose address data's countries are read as they are asked for (its tests
    /// check every one: `AddressFormatTests`).
    private static func load(
        documents: [String: (bytes: [UInt8], file: String)], fallback: Result<ReferenceData, SchemaError>?,
        ownData: Bool = false
    ) throws(SchemaError) -> ReferenceData {
        var problems: [SchemaProblem] = []
        var currencies: CodeList?
        var countries: CodeList?
        var brands: CardBrands?
        var addresses: AddressFormats?
        for (id, document) in documents.sorted(by: { $0.key < $1.key }) {
            let decoded = ReferenceDecoder.decode(
                document.bytes, file: document.file, expectedID: id, countriesAsAskedFor: ownData)
            switch decoded.data {
            case .currencies(let list)?: currencies = list
            case .countries(let list)?: countries = list
            case .cardBrands(let data)?: brands = data
            case .addresses(let data)?: addresses = data
            case nil: break
            }
            problems += decoded.problems
        }
        let base = try? fallback?.get()
        guard problems.isEmpty, let currencies = currencies ?? base?.currencies,
            let countries = countries ?? base?.countries,
            let cardBrands = brands ?? base?.cardBrands, let addresses = addresses ?? base?.addresses
        else {
            if problems.isEmpty {
                let have = Set(documents.keys)
                let missing = kinds.map(\.id).filter { !have.contains($0) }
                problems.append(
                    SchemaProblem(
                        code: .unreadable, message: "reference data missing: \(missing.joined(separator: ", "))",
                        location: SchemaLocation(file: "reference", pointer: "", position: nil)))
            }
            throw SchemaError(problems: problems)
        }
        return ReferenceData(currencies: currencies, countries: countries, cardBrands: cardBrands, addresses: addresses)
    }
}

extension SchemaSource {
    /// The reference data files of the source by id, with the file name to report problems against: `reference/*.json`
    /// in a directory, the documents named `reference/<id>` in memory.
    ///
    /// - Throws: ``SchemaError`` when a file cannot be read.
    func referenceDocuments() throws(SchemaError) -> [String: (bytes: [UInt8], file: String)] {
        switch self {
        case .documents(let documents):
            var result: [String: (bytes: [UInt8], file: String)] = [:]
            for (name, bytes) in documents where name.hasPrefix(Self.referencePrefix) {
                let id = String(name.dropFirst(Self.referencePrefix.count))
                result[id] = (bytes, "<\(name)>")
            }
            return result
        case .bundled, .directory:
            guard let directory = try? referenceDirectory(), FileManager.default.fileExists(atPath: directory.path),
                let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
            else { return [:] }
            var result: [String: (bytes: [UInt8], file: String)] = [:]
            for name in names.sorted() where name.hasSuffix(".json") && !name.hasSuffix(".schema.json") {
                let url = directory.appendingPathComponent(name)
                let data: Data
                do {
                    data = try Data(contentsOf: url)
                } catch {
                    throw SchemaError(problems: [
                        FileFailure.problem("cannot read the reference data file", path: url.path, error: error)
                    ])
                }
                result[String(name.dropLast(5))] = ([UInt8](data), url.path)
            }
            return result
        }
    }

    /// How a catalogue names a reference data document: `reference/<id>` (never a schema id, which has no `/`).
    static let referencePrefix = "reference/"
}

extension ReferenceData {
    /// Every problem of a source's reference data files, each pattern of the address data compiled as evaluation will
    /// compile it (loading compiles none): what `dce-validate lint` reports, with file, pointer, line and column.
    ///
    /// - Parameter source: Where the schemas are.
    /// - Returns: The problems; none for a source without reference data files (it uses the bundled data).
    package static func problems(in source: SchemaSource) -> [SchemaProblem] {
        do {
            return try source.referenceDocuments().sorted { $0.key < $1.key }.flatMap { id, document in
                ReferenceDecoder.decode(document.bytes, file: document.file, expectedID: id, compilingPatterns: true)
                    .problems
            }
        } catch {
            return error.problems
        }
    }
}
