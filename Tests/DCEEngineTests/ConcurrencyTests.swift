import DCEEngine
import Testing

/// One compiled validator shared by many tasks gives every task the same answers as a single task.
struct ConcurrencyTests {
    @Test func sharedValidatorGivesTheSameReportsFromManyTasks() async throws {
        let validator = Fixtures.validator
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
}
