import DCEEngine
import DCEReports
import Testing

/// Payloads rendered in batches (as `dce-validate` does on its workers) must give the report that adding them one
/// by one gives, whatever the batch sizes: the separators between batches and JUnit's numbering depend on it.
struct ReportBatchTests {
    /// Valid and invalid payloads, in an order where whole batches hold no violation (SARIF writes nothing for them).
    static func payloads() throws -> [PayloadReport] {
        let documents = [
            #"{"programName": "P", "currency": "EUR"}"#,
            #"{"programName": "P", "currency": "EUR"}"#,
            #"{"programName": "P", "currency": "XX"}"#,
            #"{"programName": "P", "currency": "EUR"}"#,
            #"{"currency": "EURO", "cardPin": "12"}"#,
            #"{"programName": "P", "currency": "EUR"}"#,
            #"{"programName": "P", "currency": "EUR"}"#,
            #"{"programName": "", "currency": "EUR"}"#,
        ]
        return try documents.enumerated().map { index, json in
            PayloadReport(
                file: "batch.ndjson", line: index + 1, report: try Fixtures.validate(json, schema: "card-create"))
        }
    }

    static let batchings: [[Int]] = [[8], [1, 1, 1, 1, 1, 1, 1, 1], [2, 0, 3, 3], [0, 4, 4], [3, 5], [1, 7]]

    @Test(arguments: ReportFormat.allCases)
    func batchesGiveTheReportOfSinglePayloads(format: ReportFormat) throws {
        let payloads = try Self.payloads()
        #expect(payloads.contains { !$0.valid } && payloads.contains { $0.valid })
        let options = ReportOptions(timestamp: "2026-11-21T00:00:00")
        var single = ""
        var writer = ReportWriter(format: format, schema: "card-create", options: options) { single += $0 }
        for payload in payloads { writer.add(payload) }
        writer.finish()

        for sizes in Self.batchings {
            var batched = ""
            var writer = ReportWriter(format: format, schema: "card-create", options: options) { batched += $0 }
            var remaining = payloads[...]
            for size in sizes {
                var batch = ReportBatch(format: format, options: options)
                for payload in remaining.prefix(size) { batch.add(payload) }
                remaining = remaining.dropFirst(size)
                #expect(batch.payloads == size)
                writer.add(batch)
            }
            writer.finish()
            #expect(remaining.isEmpty)
            #expect(batched == single, "batches of \(sizes)")
        }
    }

    @Test func aBatchCountsItsPayloads() throws {
        let payloads = try Self.payloads()
        var batch = ReportBatch(format: .json)
        for payload in payloads { batch.add(payload) }
        #expect(batch.payloads == 8)
        #expect(batch.invalid == 3)
        #expect(batch.errors == payloads.reduce(0) { $0 + $1.errors.count })
    }
}
