import DCEEngine
import DCEEnvelope
import DCETestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `dce-gateway --catalogue-version` and `--catalogue-lifetime`: what the reference gateway signs, and what it refuses.
struct GatewayCatalogueOptionsTests {
    private var gateway: String { GatewayProcess.executable("dce-gateway").path }

    @Test func theCatalogueExpiresAfterTheLifetimeGivenInDays() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Bounds, not a tolerance: the gateway signs its catalogue between these two instants, however loaded the
        // machine (its expiry whole seconds).
        let started = Date().addingTimeInterval(-1)
        let gateway = try GatewayProcess(
            in: scratch, options: ["--catalogue-version", "2026.11.10", "--catalogue-lifetime", "2"])
        defer { gateway.stop() }
        let (data, _) = try await URLSession(configuration: .ephemeral).data(
            from: gateway.url.appendingPathComponent("v1/schemas"))
        let body = try CatalogueBody(json: [UInt8](data))
        #expect(body.version.description == "2026.11.10")
        let answered = Date().addingTimeInterval(1)
        #expect(body.expires >= started.addingTimeInterval(2 * 86_400))
        #expect(body.expires <= answered.addingTimeInterval(2 * 86_400))
    }

    @Test(arguments: [
        (["--catalogue-version", "v2"], "is not decimal numbers separated by dots"),
        (["--catalogue-version", "2026.11.1-beta"], "is not decimal numbers separated by dots"),
        (["--catalogue-lifetime", "0"], "--catalogue-lifetime must be a positive number of days"),
        (["--catalogue-lifetime=-3"], "--catalogue-lifetime must be a positive number of days"),
    ])
    func aVersionThatIsNotNumbersOrALifetimeThatIsNotPositiveIsAUsageError(options: [String], message: String) throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try CLI.run(
            ["--port", "0", "--keys", scratch.appendingPathComponent("keys").path] + options, executable: gateway)
        #expect(result.status == 2)  // the usage status all three tools document
        #expect(result.err.contains(message), "\(result.err)")
        #expect(result.out.isEmpty)
    }
}
