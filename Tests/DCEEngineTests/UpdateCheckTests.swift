import DCEEngine
import Foundation
import Testing

/// Updates checked against the stored record: updatesAllowed, reverificationRequired, and ratcheting.
struct UpdateCheckTests {
    private let stored = #"{"cardNumber": "4111111111111111", "expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov", "nickname": "Travel"}"#

    private func check(_ update: String, original: String? = nil, schema: String = "payment-account", tenderType: String? = "credit") throws -> ValidationReport {
        let prepared = try Fixtures.validator.prepare(schema, tenderType: tenderType)
        return prepared.validate(json: Array(update.utf8), original: Array((original ?? stored).utf8))
    }

    @Test func changingAFieldThatUpdatesMayNotChangeIsAViolation() throws {
        let update = stored.replacingOccurrences(of: "4111111111111111", with: "5555555555554444")
        let report = try check(update)
        #expect(report.errors.map { "\($0.rule)@\($0.path)" } == ["updateNotAllowed@/cardNumber"])
        #expect(report.errors.first?.message == "Card number cannot be changed by an update")
        #expect(report.errors.first?.line == 1)
        #expect(report.reverificationRequired == ["/cardNumber"])
    }

    @Test func changesThatNeedReverificationAreListedAndNicknamesMayChange() throws {
        let update = stored.replacingOccurrences(of: "08/39", with: "09/39").replacingOccurrences(of: "Travel", with: "Groceries")
        let report = try check(update)
        #expect(report.valid)
        #expect(report.reverificationRequired == ["/expiry"])
        #expect(try check(stored).reverificationRequired.isEmpty)
    }

    @Test func removingOrAddingAProtectedFieldIsAChangeToo() throws {
        let report = try check(#"{"expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov"}"#)
        #expect(report.errors.map(\.rule.rawValue).sorted() == ["required", "updateNotAllowed"])
    }

    @Test func unchangedValuesAreNotFailedByRulesTightenedSinceTheyWereStored() throws {
        // Stored when nicknames could be longer than 30 characters; the update only changes the expiry.
        let long = String(repeating: "n", count: 40)
        let oldRecord = stored.replacingOccurrences(of: "Travel", with: long)
        let update = oldRecord.replacingOccurrences(of: "08/39", with: "10/39")
        #expect(try check(update, original: oldRecord).valid)
        // Checked on its own, or once the long nickname is itself changed, the rule applies.
        let prepared = try Fixtures.validator.prepare("payment-account", tenderType: "credit")
        // (standalone, the record also lacks the billing address credit cards need; unchanged, so ratcheted too)
        #expect(prepared.validate(json: Array(update.utf8)).errors.map(\.rule.rawValue).sorted() == ["maxLength", "required"])
        let changedNickname = update.replacingOccurrences(of: long, with: long + "x")
        #expect(try check(changedNickname, original: oldRecord).errors.map(\.rule.rawValue) == ["maxLength"])
    }

    @Test func theCLITakesTheOriginal() throws {
        // Covered end to end in the CLI tests; here the API contract on a malformed original.
        let report = try check(stored, original: "{")
        #expect(!report.valid && report.errors.map(\.rule.rawValue).contains("json"))
    }
}
