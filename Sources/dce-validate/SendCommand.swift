import ArgumentParser
import DCECommandLine
import Foundation

/// `dce-validate send`: the process becomes `dce-send`, installed beside `dce-validate`, so that validating never
/// loads what sending needs (FoundationNetworking and libcurl for HTTP, swift-crypto for sealing).
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract:
            "Validate a payload, seal its PCI fields to the gateway's key, and send the envelope (runs dce-send).",
        discussion: """
            Every argument goes to dce-send, installed beside dce-validate: 'dce-validate send --help' lists its \
            options. Exit status: 0 accepted, 1 invalid here or rejected by the gateway, 2 usage or unreadable input \
            (or dce-send missing), 3 the gateway could not be reached or answered something invalid.
            """)

    @Argument(parsing: .captureForPassthrough, help: "The arguments of dce-send.")
    var arguments: [String] = []

    func run() throws {
        try Companion.send.handOver(arguments, as: "dce-validate send")
    }
}
