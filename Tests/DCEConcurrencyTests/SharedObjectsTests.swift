import DCEEngine
import DCEPattern
import Testing

/// One object an app keeps (a validator, a prepared schema, a report, a compiled pattern) read by many tasks at once
/// gives every task the answer one task gets.
struct SharedObjectsTests {
    @Test func sharedValidatorGivesTheSameReportsFromManyTasks() async throws {
        let validator = try Validator()
        let payloads = [
            #"{"programName": "P", "currency": "EUR", "cardPin": "1234"}"#,
            #"{"programName": "SKRILL-PHYSICAL", "currency": "EURO", "mobile": "1"}"#,
            #"{"programName": "P", "currency": "USD", "cardPin": "1", "deliveryAddress": {"address1": "a", "city": "B", "countryCode": "US", "postalCode": "1_"}}"#,
        ]
        let expected = try payloads.map { try validator.validate(json: Array($0.utf8), schema: "card-create") }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<32 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<200 {
                        let index = (task + round) % payloads.count
                        let report = try validator.validate(json: Array(payloads[index].utf8), schema: "card-create")
                        if report != expected[index] { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(!expected[1].valid && !expected[2].valid && expected[0].valid)
    }

    static let addressSchema = #"""
        {"id": "a", "kind": "component", "postalAddress": {"country": "country", "streetAddress": "street", "city": "city", "state": "region", "postalCode": "zip"},
         "fields": [{"key": "country", "dataType": "String"}, {"key": "street", "dataType": "String"}, {"key": "city", "dataType": "String"},
                    {"key": "region", "dataType": "String", "name": "Region"}, {"key": "zip", "dataType": "String", "name": "Postal code", "nullable": true}]}
        """#

    /// A country's patterns are compiled the first time it is seen, by whichever task gets there first.
    @Test func manyTasksCheckingAddressesAtOnceAgree() async throws {
        let validator = try Validator(source: .documents(["a": Array(Self.addressSchema.utf8)]))
        let prepared = try validator.prepare("a")
        let payloads = [
            "GB": "SW1A 1AA", "NL": "1234 AB", "JP": "100-0001", "BR": "01310-100", "IN": "110001", "CA": "K1A 0B1",
        ]
        let verdicts = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                for (country, zip) in payloads {
                    group.addTask {
                        let json = #"{"country": "\#(country)", "street": "a", "city": "c", "zip": "\#(zip)"}"#
                        let errors = prepared.validate(json: Array(json.utf8)).errors
                        return errors.allSatisfy { $0.path != "/zip" }
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(verdicts.count == 48 && verdicts.allSatisfy { $0 })
    }

    /// A report keeps its violations as data, written out as they are read.
    @Test func aReportReadFromManyTasksAtOnceReadsTheSame() async throws {
        let prepared = try Validator().prepare("card-create")
        let payload = Array(
            #"{"programName":"NOPE","currency":"EURO","mobile":"0888","cardPin":"12a4","extra":1}"#.utf8)
        let report = prepared.validate(json: payload)
        let expected = Array(report.errors)
        #expect(expected.count >= 4)
        let readings = await withTaskGroup(of: [Violation].self) { group in
            for _ in 0..<16 { group.addTask { Array(report.errors) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(readings.allSatisfy { $0 == expected })
    }

    @Test func sharesOneCompiledPatternAcrossTasks() async throws {
        let pattern = try CompiledPattern("^[A-Z]{3}$")
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    pattern.match(index.isMultiple(of: 2) ? "EUR" : "eur")
                        == (index.isMultiple(of: 2) ? .match : .noMatch)
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(results)
    }
}
