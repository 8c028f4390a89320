// libFuzzer entry point for three targets, chosen with DCE_FUZZ_TARGET: `json` (the JSON reader), `schema` (the
// schema loader and compiler, fed the bytes as a schema file) and `validate` (card-create validation, with every
// message built). Built only by scripts/fuzz (DCE_FUZZ=1, -sanitize=fuzzer,address), which supplies main().
import DCEEngine
import Foundation

private let target = ProcessInfo.processInfo.environment["DCE_FUZZ_TARGET"] ?? "json"
private let prepared: PreparedSchema? = target == "validate" ? try? Validator().prepare("card-create") : nil

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
        _ = ReportFormat.allCases.map { $0.render(ValidationRun(schema: "card-create", payloads: [PayloadReport(file: "fuzz", report: report)])) }
    default:
        if let document = try? JSONDocument(bytes: bytes) {
            _ = document.position(of: document.root)
        }
    }
    return 0
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
