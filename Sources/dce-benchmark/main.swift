// dce-benchmark: the Swift side of scripts/benchmark. It generates the deterministic corpus and measures what only
// the Swift API can: validation of already-read payloads, typed requests, compiling the catalogue, and how cost grows
// with payload and schema size. Every figure is the median of several runs; results are printed as JSON for the
// script.
import DCEEngine
import DCEForms
import DCEModels
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// card-create and card-tokenize payloads, 40 % invalid with one to four errors each, ~230 bytes for card-create.
enum Corpus {
    /// Where cards are delivered: a city, its country, postal codes of it, and its province where the country's
    /// addresses require one (Schemas/reference/addresses.json).
    static let places: [(city: String, country: String, postalCodes: [String], state: String?)] = [
        ("Sofia", "BG", ["1000", "1404", "1700"], nil), ("Berlin", "DE", ["10115", "10969", "12043"], nil),
        ("Paris", "FR", ["75001", "75011", "75008"], nil), ("Madrid", "ES", ["28013", "28039"], "M"),
        ("Vienna", "AT", ["1010", "1030"], nil), ("Amsterdam", "NL", ["1012 AB", "1017 CE"], nil),
        ("Rome", "IT", ["00184", "00144"], "RM"), ("Porto", "PT", ["4000-322", "4050-076"], nil),
    ]
    static let currencies = ["EUR", "BGN", "USD", "CHF", "GBP"]

    static func cardCreate(_ random: inout Generator) -> String {
        var fields: [String: String] = [
            "programName": "\"SKRILL-\(Bool.random(using: &random) ? "PHYSICAL" : "VIRTUAL")-MC-EEA\"",
            "currency": "\"\(currencies.randomElement(using: &random)!)\"",
            "mobile": "\"+359 88\(Int.random(in: 1_000_000...9_999_999, using: &random))\"",
            "cardPin": "\"\(String(format: "%04d", Int.random(in: 0...9999, using: &random)))\"",
            "externalId": "\"\(UUID().uuidString.lowercased().prefix(12))\"",
        ]
        let place = places.randomElement(using: &random)!
        var address: [String: String] = [
            "address1": "\"Tsarigradsko Shose \(Int.random(in: 1...200, using: &random))\"",
            "city": "\"\(place.city)\"", "countryCode": "\"\(place.country)\"",
            "postalCode": "\"\(place.postalCodes.randomElement(using: &random)!)\"",
        ]
        if let state = place.state { address["state"] = "\"\(state)\"" }
        if Double.random(in: 0..<1, using: &random) < 0.4 {
            let mutations: [(inout [String: String], inout [String: String]) -> Void] = [
                { f, _ in f["currency"] = "\"EURO\"" },
                { f, _ in f["cardPin"] = "\"12a4\"" },
                { f, _ in f["mobile"] = "\"0888123456\"" },
                { f, _ in f["programName"] = nil },
                { _, a in a["city"] = "\"Sofia 1000\"" },
                { _, a in a["countryCode"] = "\"XX\"" },
                { _, a in a["postalCode"] = "\"\(String(repeating: "9", count: 20))\"" },
                { f, _ in f["termsAndConditionsAccepted"] = "\"yes\"" },
            ]
            for mutation in mutations.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)) {
                mutation(&fields, &address)
            }
        }
        if fields["programName"]?.contains("PHYSICAL") ?? true {
            fields["deliveryAddress"] =
                "{" + address.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
                + "}"
        }
        return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    static func cardTokenize(_ random: inout Generator) -> String {
        let wallet = ["APPLE_PAY", "GOOGLE_PAY", "SAMSUNG_PAY"].randomElement(using: &random)!
        var fields: [String: String] = ["walletType": "\"\(wallet)\""]
        if wallet == "APPLE_PAY" {
            fields["leafCertificate"] = "\"MIIBhDCCASmgAwIBAgIUO9pn2DwDHxz+ri0ifMgOhMZ5YXswCgYIKoZIzj0EAwIw\""
            fields["subordinateCertificate"] = "\"3082018430820129a003020102021433\""
            fields["nonce"] = "\"w1koQg==\""
            fields["nonceSignature"] = "\"QF7lLU3rlOvX2h0qiuscoJE9PdX4AQ==\""
        } else {
            fields["clientDeviceId"] = "\"WNkcsfZPiKfa5PrH3jilkQYT\""
            fields["clientWalletAccountId"] = "\"40exmLiWV1iV55ZVstOAiMf7\""
        }
        if Double.random(in: 0..<1, using: &random) < 0.4 {
            let mutations: [(inout [String: String]) -> Void] = [
                { $0["walletType"] = "\"PAYPAL\"" }, { $0["nonce"] = "\"w1koQg=\"" }, { $0["clientDeviceId"] = "\"\"" },
                { $0["leafCertificate"] = "\"not a certificate!\"" }, { $0["extra"] = "1" },
                { $0["clientWalletAccountId"] = "7" },
            ]
            for mutation in mutations.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)) {
                mutation(&fields)
            }
        }
        return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func measure(runs: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs { times.append(seconds(clock.measure(body))) }
    return median(times)
}

/// Kept in a function: top-level variables of main.swift are globals, and every access to a global pays for a
/// dynamic exclusivity check that would be measured as validation time.
func measureParsed(schema: String, corpus: String, runs: Int) throws {
    guard let data = FileManager.default.contents(atPath: corpus) else { fail("cannot read the corpus") }
    let lines = data.split(separator: UInt8(ascii: "\n")).map { [UInt8]($0) }
    let documents = lines.compactMap { try? JSONDocument(bytes: $0) }
    let prepared = try Validator().prepare(schema)
    var invalid = 0
    let perRun = measure(runs: runs) {
        var count = 0
        for document in documents where !prepared.validate(document).valid { count += 1 }
        invalid = count
    }
    let parseAndValidate = measure(runs: runs) {
        for line in lines { _ = prepared.validate(json: line) }
    }
    // The same figure apart for valid and invalid payloads: where the time goes (an invalid one pays for messages).
    let valid = documents.filter { prepared.validate($0).valid }
    let rejected = documents.filter { !prepared.validate($0).valid }
    let validRun = measure(runs: runs) { for document in valid { _ = prepared.validate(document) } }
    let rejectedRun = measure(runs: runs) { for document in rejected { _ = prepared.validate(document) } }
    let errors = rejected.reduce(0) { $0 + prepared.validate($1).errors.count }
    // Every error with its message written (a report keeps violations as data until they are read): what a reference
    // that makes each error with its message does.
    var written = 0
    let writtenRun = measure(runs: runs) {
        for document in documents {
            for error in prepared.validate(document).errors { written &+= error.message.utf8.count }
        }
    }
    guard written > 0 || rejected.isEmpty else { fail("no message was written") }
    // The verdict alone (what a Submit button asks): on parsed payloads, and from bytes with the parse included.
    let verdict = measure(runs: runs) { for document in documents { _ = prepared.isValid(document) } }
    let verdictBytes = measure(runs: runs) { for line in lines { _ = prepared.isValid(json: line) } }
    // The reader alone: bytes to the document evaluation walks (every node, strings left unescaped until read).
    let read = measure(runs: runs) { for line in lines { _ = try? JSONDocument(bytes: line) } }
    print(
        #"{"payloads": \#(documents.count), "invalid": \#(invalid), "parsedNs": \#(perRun / Double(documents.count) * 1e9), "#
            + #""validNs": \#(validRun / Double(max(valid.count, 1)) * 1e9), "invalidNs": \#(rejectedRun / Double(max(rejected.count, 1)) * 1e9), "#
            + #""errorsPerInvalid": \#(Double(errors) / Double(max(rejected.count, 1))), "#
            + #""writtenNs": \#(writtenRun / Double(documents.count) * 1e9), "#
            + #""verdictNs": \#(verdict / Double(documents.count) * 1e9), "#
            + #""verdictBytesNs": \#(verdictBytes / Double(lines.count) * 1e9), "#
            + #""readNs": \#(read / Double(lines.count) * 1e9), "#
            + #""parseAndValidateNs": \#(parseAndValidate / Double(lines.count) * 1e9)}"#)
}

/// A typed request against its JSON: `validate(request)` and `isValid(request)` on the card-create requests of the
/// corpus that decode as a `CardRequest` (generated: it writes itself for the engine), and `validate(json:)` and
/// `isValid(json:)` on those same requests encoded once beforehand.
func measureTyped(corpus: String, runs: Int) throws {
    guard let data = FileManager.default.contents(atPath: corpus) else { fail("cannot read the corpus") }
    let decoder = JSONDecoder()
    let requests = data.split(separator: UInt8(ascii: "\n")).compactMap {
        try? decoder.decode(CardRequest.self, from: $0)
    }
    let encoder = JSONEncoder()
    let encoded = try requests.map { [UInt8](try encoder.encode($0)) }
    let validator = try Validator()
    let prepared = try validator.prepare("card-create")
    // Each request is handed over as an app holds it, borrowed by index: a `for … in` loop copies each element, which
    // for a model is a retain and a release of every string member, and for the JSON one of its array.
    let typed = measure(runs: runs) {
        for index in requests.indices { _ = try? validator.validate(requests[index]) }
    }
    let typedVerdict = measure(runs: runs) {
        for index in requests.indices { _ = try? validator.isValid(requests[index]) }
    }
    let json = measure(runs: runs) { for index in encoded.indices { _ = prepared.validate(json: encoded[index]) } }
    let jsonVerdict = measure(runs: runs) {
        for index in encoded.indices { _ = prepared.isValid(json: encoded[index]) }
    }
    // The two halves of each: the documents alone (written by the models into memory kept from the request before,
    // as the validator writes them; read from the JSON), and the verdict on documents made beforehand.
    let writtenDocuments = try requests.map { request in
        var writer = DocumentWriter()
        request.write(to: &writer)
        return try writer.document()
    }
    let readDocuments = try encoded.map { try JSONDocument(bytes: $0) }
    var kept: DocumentWriter.Storage? = DocumentWriter.Storage()
    let write = measure(runs: runs) {
        for index in requests.indices {
            var writer = DocumentWriter(reusing: kept.take() ?? DocumentWriter.Storage())
            requests[index].write(to: &writer)
            let document = try? writer.document()
            kept = writer.storage(recycling: document)
        }
    }
    let read = measure(runs: runs) { for bytes in encoded { _ = try? JSONDocument(bytes: bytes) } }
    let writtenVerdict = measure(runs: runs) { for document in writtenDocuments { _ = prepared.isValid(document) } }
    let readVerdict = measure(runs: runs) { for document in readDocuments { _ = prepared.isValid(document) } }
    let count = Double(max(requests.count, 1))
    print(
        #"{"requests": \#(requests.count), "typedNs": \#(typed / count * 1e9), "#
            + #""typedVerdictNs": \#(typedVerdict / count * 1e9), "jsonNs": \#(json / count * 1e9), "#
            + #""jsonVerdictNs": \#(jsonVerdict / count * 1e9), "writeNs": \#(write / count * 1e9), "#
            + #""readNs": \#(read / count * 1e9), "writtenVerdictNs": \#(writtenVerdict / count * 1e9), "#
            + #""readVerdictNs": \#(readVerdict / count * 1e9)}"#)
}

func spawnMeasured(_ command: [String]) throws {
    guard !command.isEmpty else { fail("spawn needs a command") }
    var pid = pid_t()
    let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let clock = ContinuousClock()
    let start = clock.now
    guard posix_spawn(&pid, command[0], nil, nil, argv, environ) == 0 else { fail("cannot start \(command[0])") }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let elapsed = seconds(clock.now - start)
    print(#"{"seconds": \#(elapsed), "maxrssKB": \#(usage.ru_maxrss), "status": \#((status >> 8) & 0xFF)}"#)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("dce-benchmark: \(message)\n".utf8))
    exit(2)
}

/// What one keystroke of a person costs a form (`FormModel.set`), typing `text` into `pointer` character by character
/// from an empty field, in µs: the median over runs of the mean over the keystrokes, and of the slowest keystroke (one
/// that makes the form describe itself again: the first character, a card's brand decided). The form is made, and
/// emptied, outside the measured time.
@MainActor
func keystrokeMicroseconds(_ prepared: PreparedSchema, _ pointer: String, _ text: String, runs: Int) throws
    -> (mean: Double, slowest: Double)
{
    let form = try FormModel(prepared)
    let prefixes = text.indices.map { String(text[...$0]) }
    var (means, slowest): ([Double], [Double]) = ([], [])
    let clock = ContinuousClock()
    for _ in 0..<runs {
        try form.remove(at: pointer)
        let times = try prefixes.map { prefix in seconds(try clock.measure { try form.set(prefix, at: pointer) }) }
        means.append(times.reduce(0, +) / Double(times.count))
        slowest.append(times.max() ?? 0)
    }
    return (median(means) * 1e6, median(slowest) * 1e6)
}

let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String, _ fallback: String) -> String {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.endIndex else { return fallback }
    return arguments[index + 1]
}
let runs = Int(option("runs", "5")) ?? 5

switch arguments.first {
case "generate":
    // generate --schema card-create --count 100000 --seed 1 --out FILE
    let count = Int(option("count", "100000")) ?? 100_000
    var random = Generator(state: UInt64(option("seed", "20261121")) ?? 1)
    let schema = option("schema", "card-create")
    var text = ""
    text.reserveCapacity(count * 260)
    for _ in 0..<count {
        text += (schema == "card-tokenize" ? Corpus.cardTokenize(&random) : Corpus.cardCreate(&random)) + "\n"
    }
    guard FileManager.default.createFile(atPath: option("out", "corpus.ndjson"), contents: Data(text.utf8)) else {
        fail("cannot write the corpus")
    }

case "parsed":
    // parsed --schema ID --corpus FILE: median ns per payload to validate payloads already read, all errors.
    try measureParsed(schema: option("schema", "card-create"), corpus: option("corpus", ""), runs: runs)

case "typed":
    // typed --corpus FILE: median ns per request, a typed CardRequest against its JSON.
    try measureTyped(corpus: option("corpus", ""), runs: runs)

case "catalogue":
    // catalogue: median ms to load and compile every shipped schema.
    var count = 0
    let time = measure(runs: runs) { count = ((try? Validator())?.schemaIDs.count) ?? 0 }
    print(#"{"schemas": \#(count), "ms": \#(time * 1e3)}"#)

case "scaling":
    // scaling: ns per payload against string size, and against the number of fields of a schema.
    var sizes: [String] = []
    let stringSchema =
        #"{"id": "s", "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "^[a-z]*$"}]}]}"#
    let stringValidator = try Validator(source: .documents(["s": Array(stringSchema.utf8)]))
    let prepared = try stringValidator.prepare("s")
    for size in [100, 1_000, 10_000, 100_000, 1_000_000] {
        let payload = Array(("{\"v\": \"" + String(repeating: "a", count: size) + "\"}").utf8)
        let repeats = max(1, 2_000_000 / size)
        let time = measure(runs: runs) { for _ in 0..<repeats { _ = prepared.validate(json: payload) } }
        sizes.append(#"{"bytes": \#(size), "ns": \#(time / Double(repeats) * 1e9)}"#)
    }
    var fieldCounts: [String] = []
    for count in [10, 30, 100, 300, 1_000] {
        let fields = (0..<count).map { #"{"key": "f\#($0)", "dataType": "String", "maxLength": 20, "required": true}"# }
        let schema = #"{"id": "w", "fields": [\#(fields.joined(separator: ","))]}"#
        let validator = try Validator(source: .documents(["w": Array(schema.utf8)]))
        let wide = try validator.prepare("w")
        let payload = Array(("{" + (0..<count).map { #""f\#($0)": "value \#($0)""# }.joined(separator: ",") + "}").utf8)
        let repeats = max(1, 200_000 / count)
        let time = measure(runs: runs) { for _ in 0..<repeats { _ = wide.validate(json: payload) } }
        fieldCounts.append(#"{"fields": \#(count), "ns": \#(time / Double(repeats) * 1e9)}"#)
    }
    print(
        #"{"stringSize": [\#(sizes.joined(separator: ","))], "schemaSize": [\#(fieldCounts.joined(separator: ","))]}"#)

case "keystroke":
    // keystroke: µs per keystroke of a form, a card number typed into payment-account and a postal code into
    // card-create's delivery address.
    let validator = try Validator()
    let card = try keystrokeMicroseconds(
        validator.prepare("payment-account", tenderType: "credit"), "/cardNumber", "4111111111111111", runs: runs)
    let postal = try keystrokeMicroseconds(
        validator.prepare("card-create", context: ["region": "US"]), "/deliveryAddress/postalCode", "94105-1804",
        runs: runs)
    print(
        #"{"cardNumberMicroseconds": \#(card.mean), "postalCodeMicroseconds": \#(postal.mean), "#
            + #""cardNumberSlowestMicroseconds": \#(card.slowest), "postalCodeSlowestMicroseconds": \#(postal.slowest)}"#
    )

case "spawn":
    // spawn COMMAND ARGUMENTS...: runs a command with posix_spawn from this small process and reports its wall time
    // and peak RSS. (A child forked from a large process, such as the Python harness, counts the parent's pages in
    // its peak RSS until it execs.)
    try spawnMeasured(Array(arguments.dropFirst()))

default:
    fail(
        "usage: dce-benchmark generate|parsed|typed|catalogue|keystroke|scaling [--schema ID] [--corpus FILE] [--count N] [--runs N]"
    )
}
