// libFuzzer entry point for the targets chosen with DCE_FUZZ_TARGET: `json` (the JSON reader), `schema` (the
// schema loader and compiler, fed the bytes as a schema file), `validate` (card-create validation, with every
// message built, and the payload's masked copy), `envelope` (the envelope reader, `IncomingRequest`, and the gateway's `accept`) and `gateway`
// (the gateway's whole handling of a request body, in process: age, idempotency, opening, validation, answer),
// `ndjson` (the NDJSON reader, with a small line limit so that oversized lines and their skipping are reached),
// `reference` (a reference data file, read as `lint` reads it, then used by a schema that reads every kind of data) and
// `draft` (the as-you-type check against a form's draft: the bytes are the draft, checked at one of several fields).
// Built only by scripts/fuzz (DCE_FUZZ=1, -sanitize=fuzzer,address), which supplies main(); with DCE_FUZZ=core,
// without the gateway and its target.
import DCEBatchInput
import DCEEngine
import DCEEnvelope
import DCEForms
import DCEReports
import Foundation

#if DCE_FUZZ_GATEWAY
    import DCEGateway
    import Logging
#endif

private let target = ProcessInfo.processInfo.environment["DCE_FUZZ_TARGET"] ?? "json"
private let prepared: PreparedSchema? = target == "validate" ? try? Validator().prepare("card-create") : nil
private let validator: Validator? = target == "envelope" ? try? Validator() : nil

/// An opener that opens nothing: the envelope target exercises what happens around the seal.
private struct RefusingOpener: FieldOpening {
    struct Refused: Error {}
    func open(_ field: EncryptedField, associatedData: [UInt8]) throws -> SensitiveField { throw Refused() }
}

#if DCE_FUZZ_GATEWAY
    /// The time every fuzzed envelope is judged at; the seeds scripts/fuzz writes are created a minute before it.
    private let fuzzNow = RFC3339.date(from: "2026-11-23T12:00:00Z")!
    /// Fixed keys, so that the seeds' sealed values are sealed to them.
    private let fuzzKeys = Gateway.Keys(
        encryption: Data(repeating: 7, count: 32), encryptionKeyID: "gw-fuzz", signing: Data(repeating: 9, count: 32))

    /// The gateway under fuzzing; a new one every 65,536 inputs, so that its memory of accepted requests never
    /// fills up and stops new requests from reaching validation.
    private final class FuzzedGateway: @unchecked Sendable {
        private var gateway: Gateway?
        private var uses = 0

        func handle(_ body: [UInt8]) -> Gateway.Answer {
            if gateway == nil || uses == 65_536 {
                gateway = try? Gateway(
                    keys: fuzzKeys, version: "1", logger: Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() },
                    now: { fuzzNow }, authentication: .none)
                uses = 0
            }
            uses += 1
            guard let gateway else { fatalError("the bundled schemas did not compile") }
            // libFuzzer calls in on its own thread: wait there for the gateway's asynchronous answer.
            let answered = DispatchSemaphore(value: 0)
            let answer = AnswerBox()
            Task {
                answer.value = await gateway.handle(envelope: body)
                answered.signal()
            }
            answered.wait()
            guard let value = answer.value else { fatalError("the gateway gave no answer") }
            return value
        }
    }

    /// The answer handed from the gateway's task to libFuzzer's thread.
    ///
    /// `@unchecked Sendable`: written once before the semaphore is signalled, read after it is waited for.
    private final class AnswerBox: @unchecked Sendable {
        var value: Gateway.Answer?
    }

    private let fuzzedGateway = FuzzedGateway()
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch target {
    case "schema":
        if let validator = try? Validator(source: .documents(["fuzz": bytes])) {
            _ = try? validator.validate(json: Array(#"{"a": [1, "x", null, {"b": true}]}"#.utf8), schema: "fuzz")
        }
    case "validate":
        guard let prepared else { fatalError("the card-create schema did not compile") }
        let report = prepared.validate(json: bytes)
        for error in report.errors where error.message.isEmpty || error.rule.rawValue.isEmpty {
            fatalError("a violation without a message or rule")
        }
        // One report format per input, chosen by its length, so that a run renders every format: rendering all five
        // for every input took a third of the target's time.
        let format = ReportFormat.allCases[size % ReportFormat.allCases.count]
        _ = format.render(ValidationRun(schema: "card-create", payloads: [PayloadReport(file: "fuzz", report: report)]))
        // The masked copy of what reads as JSON is JSON again, and shows no card PIN.
        if (try? JSONDocument(bytes: bytes)) != nil {
            guard let copy = try? prepared.masked(json: bytes), (try? JSONDocument(bytes: copy)) != nil else {
                fatalError("the masked copy of well-formed JSON is not well-formed")
            }
            if let object = (try? JSONSerialization.jsonObject(with: Data(copy))) as? [String: Any],
                let pin = object["cardPin"],
                !(pin is NSNull), pin as? String != PreparedSchema.withheldMarker
            {
                fatalError("the masked copy shows the card PIN")
            }
        }
    case "envelope":
        guard let validator else { fatalError("the bundled schemas did not compile") }
        if let incoming = try? IncomingRequest(json: bytes) {
            _ = "\(incoming) \(incoming.header.createdAt.map(RFC3339.string(from:)) ?? "")"
            if let (report, _) = try? validator.accept(incoming, opener: RefusingOpener()) {
                for error in report.errors where error.message.isEmpty { fatalError("a violation without a message") }
            }
        }
    #if DCE_FUZZ_GATEWAY
        case "gateway":
            let answer = fuzzedGateway.handle(bytes)
            guard [200, 409, 422, 503].contains(answer.status), (try? PDResponse(json: answer.body)) != nil else {
                fatalError("the gateway answered \(answer.status) with a body that is not a PDResponse")
            }
    #endif
    case "ndjson":
        fuzzNDJSON(bytes)
    case "reference":
        fuzzReference(bytes)
    case "draft":
        fuzzDraft(bytes)
    default:
        if let document = try? JSONDocument(bytes: bytes) {
            _ = document.position(of: document.root)
        }
    }
    return 0
}

/// Reads `bytes` as an NDJSON stream with lines of at most 64 bytes, delivered a few bytes per read as a pipe
/// would (how many, the first byte decides), and checks what the reader hands out against the lines themselves:
/// line numbers only grow and name real lines; a non-blank line within the limit comes out whole, once; a longer
/// line comes out whole or as its first 65 bytes.
private func fuzzNDJSON(_ bytes: [UInt8]) {
    let limit = 64
    var reader = NDJSONReader(name: "fuzz", bytes: bytes, maxLineBytes: limit, readSize: 1 + Int(bytes.first ?? 0) % 97)
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    var lastLine = 0
    var handedOut: [Int: ArraySlice<UInt8>] = [:]
    func handOut(_ line: Int, _ record: ArraySlice<UInt8>) {
        guard line > lastLine, line <= lines.count else {
            fatalError("line \(line) after line \(lastLine), of \(lines.count)")
        }
        lastLine = line
        handedOut[line] = record
    }
    while let item = reader.next() {
        switch item {
        case .block(_, let firstLine, let block): NDJSONReader.forEachRecord(in: block, firstLine: firstLine, handOut)
        case .record(_, let line, let record): handOut(line, record[...])
        case .file, .unreadable: fatalError("a stream in memory handed out \(item)")
        }
    }
    for (offset, line) in lines.enumerated() {
        let content = line.last == 0x0D ? line.dropLast() : line
        let blank = !content.contains { $0 != 0x20 && $0 != 0x09 }
        switch handedOut[offset + 1] {
        case nil:
            guard blank || line.count > limit else { fatalError("line \(offset + 1) was not handed out") }
        case let record?:
            guard record.elementsEqual(content) || (line.count > limit && record.elementsEqual(line.prefix(limit + 1)))
            else {
                fatalError("line \(offset + 1) was handed out as other bytes")
            }
        }
    }
}

/// libFuzzer's driver, from the runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable with `main` pointing at `<module>_main`; this one hands control to libFuzzer.
@_cdecl("dce_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}

/// A schema that reads every kind of reference data: a card number's brand (format and derived context), a currency,
/// and an address whose parts follow its country.
private let referenceSchema = Array(
    #"""
    {"id": "s", "contexts": {"brand": {"derive": [{"cardBrandOf": "/card"}]}},
     "postalAddress": {"country": "country", "state": "state", "postalCode": "zip"},
     "fields": [{"key": "card", "dataType": "String", "format": "card-number",
                 "overrides": [{"when": {"field": "/card", "cardBrand": ["american-express"]}, "maxLength": 15}]},
                {"key": "cur", "dataType": "String", "format": "iso4217-or-withdrawn"},
                {"key": "country", "dataType": "String", "format": "iso3166-alpha2"},
                {"key": "state", "dataType": "String"}, {"key": "zip", "dataType": "String"}]}
    """#.utf8)

/// Payloads for it, one per input (chosen by the input's length): places whose postal codes, states and prefixes the
/// data has, and a number of each kind.
private let referencePayloads = [
    #"{"card": "4111111111111111", "cur": "EUR", "country": "US", "state": "CA", "zip": "94105"}"#,
    #"{"card": "378282246310005", "cur": "BGN", "country": "BG", "state": "", "zip": "1000"}"#,
    #"{"card": "2221000000000009", "cur": "XCG", "country": "GB", "zip": "sw1a 1aa"}"#,
    #"{"card": "6011111111111117", "cur": "USD", "country": "AD", "state": "Canillo", "zip": "AD100"}"#,
].map { Array($0.utf8) }

/// Reads the bytes as the reference data file whose id they name first, with every pattern compiled as `lint`
/// compiles them; when the file loads (its patterns compiling or not), validates a payload through the data (lazily
/// compiled patterns, brand runs, name tables), each message built.
private func fuzzReference(_ bytes: [UInt8]) {
    let ids = ["iso4217", "iso3166-1", "card-brands", "addresses"]
    let text = String(decoding: bytes, as: UTF8.self)
    let named = ids.compactMap { id in text.range(of: "\"\(id)\"").map { (id, $0.lowerBound) } }
    let id = named.min { $0.1 < $1.1 }?.0 ?? ids[bytes.count % ids.count]
    let documents = ["reference/\(id)": bytes]
    _ = ReferenceData.problems(in: .documents(documents))
    // Loading compiles no pattern: a file whose patterns PCRE2 refuses still loads, and leaves those values unjudged.
    guard let validator = try? Validator(source: .documents(documents.merging(["s": referenceSchema]) { $1 })) else {
        return
    }
    guard
        let report = try? validator.validate(
            json: referencePayloads[bytes.count % referencePayloads.count], schema: "s")
    else {
        fatalError("a schema that compiled with this data could not validate")
    }
    for error in report.errors where error.message.isEmpty || error.rule.rawValue.isEmpty {
        fatalError("a violation without a message or rule")
    }
}

/// The fields a draft is checked at, with the text typed there: a card number in a list of accounts (the item's
/// `accountType` binds the tender type), a postal code that follows its address's country, a PIN ruled by a derived
/// region, and a new item at the end of a list (`-`).
private let draftFields: [(schema: PreparedSchema, pointer: String, text: String)] = {
    guard target == "draft" else { return [] }
    guard let validator = try? Validator(),
        let profile = try? validator.prepare("customer-profile"),
        let account = try? validator.prepare("payment-account", tenderType: "credit"),
        let delivery = try? validator.prepare("delivery-address"),
        let card = try? validator.prepare("card-create")
    else { fatalError("the bundled schemas did not compile") }
    return [
        (profile, "/paymentAccounts/1/cardNumber", "6006491234567890"),
        (profile, "/paymentAccounts/-/cardNumber", "4111 1111"),
        (account, "/billingAddress/zipCode", "9021"),
        (delivery, "/postalCode", "1000"),
        (card, "/cardPin", "12a4"),
        (card, "/deliveryAddress/postalCode", "SW1A 1AA"),
    ]
}()

/// Checks typed text against the bytes as a form's draft, at a field the input's length picks: any draft either
/// gives a verdict or is refused as not JSON or not holding the field (`invalidDraft`), never anything else; the
/// verdict-only call agrees with the one that gives feedback; and a card number's masked form never shows it whole.
private func fuzzDraft(_ bytes: [UInt8]) {
    guard let draft = try? JSONDocument(bytes: bytes) else { return }
    let (prepared, pointer, text) = draftFields[bytes.count % draftFields.count]
    let feedback: InputFeedback
    do {
        feedback = try prepared.inputFeedback(text, at: pointer, draft: draft)
    } catch {
        guard error.code == .invalidDraft else { fatalError("a draft refused with \(error.code): \(error.message)") }
        return
    }
    guard (try? prepared.checkInput(text, at: pointer, draft: draft)) == feedback.verdict else {
        fatalError("checkInput and inputFeedback disagree at \(pointer)")
    }
    let digits = text.filter(\.isNumber)
    if let masked = feedback.masked, digits.count > 4, masked.filter(\.isNumber) == digits {
        fatalError("the masked card number shows every digit")
    }
}
