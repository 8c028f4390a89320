import DCEEngine
import Foundation
import Testing

/// Updates checked against the stored record: updatesAllowed, reverificationRequired, and ratcheting.
struct UpdateCheckTests {
    private let stored =
        #"{"cardNumber": "4111111111111111", "expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov", "nickname": "Travel"}"#

    private func check(_ update: String, original: String? = nil, replacing: Bool = false) throws -> ValidationReport {
        let prepared = try Fixtures.validator.prepare("payment-account", tenderType: "credit")
        return prepared.validate(
            json: Array(update.utf8), original: Array((original ?? stored).utf8), replacing: replacing)
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
        let update = stored.replacingOccurrences(of: "08/39", with: "09/39").replacingOccurrences(
            of: "Travel", with: "Groceries")
        let report = try check(update)
        #expect(report.valid)
        #expect(report.reverificationRequired == ["/expiry"])
        #expect(try check(stored).reverificationRequired.isEmpty)
    }

    @Test func removingOrAddingAProtectedFieldIsAChangeToo() throws {
        // Replacing the record, a member left out is removed; as a merge patch, it is kept.
        let withoutCardNumber = #"{"expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov"}"#
        let replaced = try check(withoutCardNumber, replacing: true)
        #expect(replaced.errors.map(\.rule.rawValue).sorted() == ["required", "updateNotAllowed"])
        #expect(try check(withoutCardNumber).valid)
        // As a merge patch, null removes: the card number is required and may not change, both at the null.
        let removed = try check(#"{"cardNumber": null}"#)
        #expect(
            removed.errors.map { "\($0.rule)@\($0.path):\($0.line ?? 0):\($0.column ?? 0)" } == [
                "required@/cardNumber:1:16", "updateNotAllowed@/cardNumber:1:16",
            ])
        #expect(removed.reverificationRequired == ["/cardNumber"])
        let addedCard = try check(
            #"{"cardNumber": "4111111111111111"}"#, original: #"{"cardholderName": "Ivan Petrov"}"#)
        #expect(addedCard.errors.map(\.rule.rawValue) == ["updateNotAllowed"])
    }

    /// Seed 004: "When updating a payment account, the user can change the nickname property, but cannot change the
    /// cardNumber." Sent as what changes (seed 003: absent = no change, null = remove, a value = set it).
    @Test func anUpdateCarriesOnlyWhatChanges() throws {
        let nickname = try check(#"{"nickname": "Holiday"}"#)
        #expect(nickname.valid && nickname.errors.isEmpty && nickname.reverificationRequired.isEmpty)
        let cardNumber = try check("{\n  \"nickname\": \"Holiday\",\n  \"cardNumber\": \"5555555555554444\"\n}")
        #expect(
            cardNumber.errors.map { "\($0.rule)@\($0.path):\($0.line ?? 0):\($0.column ?? 0)" } == [
                "updateNotAllowed@/cardNumber:3:17"
            ])
        #expect(cardNumber.reverificationRequired == ["/cardNumber"])
        // Sending the stored value again is no change.
        let same = try check(#"{"cardNumber": "4111111111111111", "nickname": "Holiday"}"#)
        #expect(same.valid && same.reverificationRequired.isEmpty)
        // A nullable field the update removes is simply gone.
        #expect(try check(#"{"nickname": null}"#).valid)
        // A merged record is validated in full: the new expiry is judged, and listed for reverification.
        let expiry = try check(#"{"expiry": "13/39"}"#)
        #expect(expiry.errors.map { "\($0.rule)@\($0.path):\($0.line ?? 0)" } == ["format@/expiry:1"])
        #expect(expiry.reverificationRequired == ["/expiry"])
    }

    @Test func objectsMergeMemberByMemberAndArraysAreReplacedWhole() throws {
        let record =
            #"{"cardNumber": "4111111111111111", "expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov", "billingAddress": {"line1": "1600 Pennsylvania Ave NW", "city": "Washington", "state": "DC", "zipCode": "205000003", "country": "US"}}"#
        #expect(try check(#"{"billingAddress": {"line1": "1 Main St"}}"#, original: record).valid)
        let zip = try check(#"{"billingAddress": {"zipCode": "20500"}}"#, original: record)
        #expect(
            zip.errors.map { "\($0.rule)@\($0.path):\($0.line ?? 0):\($0.column ?? 0)" } == [
                "regex@/billingAddress/zipCode:1:32"
            ])
        let removedCity = try check(#"{"billingAddress": {"city": null}}"#, original: record)
        #expect(removedCity.errors.map { "\($0.rule)@\($0.path)" } == ["required@/billingAddress/city"])
        // Arrays: a schema with a list, whose update replaces the stored list whole.
        let validator = try Fixtures.validator([
            "tags":
                #"{"id": "tags", "version": "1.0.0", "fields": [{"key": "tags", "dataType": "Array", "maxItems": 2, "items": {"dataType": "String", "maxLength": 3}}, {"key": "name", "dataType": "String", "required": true}]}"#
        ])
        let prepared = try validator.prepare("tags")
        let stored = Array(#"{"name": "x", "tags": ["a", "b"]}"#.utf8)
        #expect(prepared.validate(json: Array(#"{"tags": ["c"]}"#.utf8), original: stored).valid)
        let long = prepared.validate(json: Array(#"{"tags": ["c", "dddd"]}"#.utf8), original: stored)
        #expect(long.errors.map { "\($0.rule)@\($0.path):\($0.column ?? 0)" } == ["maxLength@/tags/1:16"])
    }

    /// A customer profile's accounts: the list is replaced whole, and an item at a place the stored list had is an
    /// update of that account, under the tender type it names.
    @Test func anAccountInAListIsUpdatedUnderItsOwnTenderType() throws {
        let stored = try [UInt8](
            Data(
                contentsOf: Fixtures.examples.appendingPathComponent(
                    "customer-profile/valid-profile-with-credit-and-gift.json")))
        var document = try #require(try JSONSerialization.jsonObject(with: Data(stored)) as? [String: Any])
        var accounts = try #require(document["paymentAccounts"] as? [[String: Any]])
        accounts[0]["expiry"] = "09/39"  // credit: reverified
        accounts[1]["expiry"] = "09/39"  // gift: no issuer to reverify with
        accounts[1]["cardNumber"] = "6006491234567891"  // may not change
        accounts.append(["accountType": "gift", "cardNumber": "6006491234567892"])  // a new account is no change
        document = ["paymentAccounts": accounts]
        let update = try [UInt8](JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
        let report = try Fixtures.validator.prepare("customer-profile").validate(json: update, original: stored)
        #expect(report.summary == ["updateNotAllowed@/paymentAccounts/1/cardNumber"])
        #expect(report.errors.first?.line == 1)
        #expect(report.reverificationRequired == ["/paymentAccounts/0/expiry", "/paymentAccounts/1/cardNumber"])
    }

    @Test func aWholeRecordUpdateIsExplicit() throws {
        // Replacing, the nickname-only update lacks every required field (today's reading, kept under --replace).
        let replaced = try check(#"{"nickname": "Holiday"}"#, replacing: true)
        #expect(
            replaced.errors.map(\.rule.rawValue).sorted() == [
                "required", "required", "required", "required", "updateNotAllowed",
            ])
    }

    @Test func unchangedValuesAreNotFailedByRulesTightenedSinceTheyWereStored() throws {
        // Stored when nicknames could be longer than 30 characters; the update only changes the expiry.
        let long = String(repeating: "n", count: 40)
        let oldRecord = stored.replacingOccurrences(of: "Travel", with: long)
        let update = oldRecord.replacingOccurrences(of: "08/39", with: "10/39")
        #expect(try check(update, original: oldRecord).valid)
        #expect(try check(#"{"expiry": "10/39"}"#, original: oldRecord).valid)
        // Checked on its own, or once the long nickname is itself changed, the rule applies.
        let prepared = try Fixtures.validator.prepare("payment-account", tenderType: "credit")
        // (standalone, the record also lacks the billing address credit cards need; unchanged, so ratcheted too)
        #expect(
            prepared.validate(json: Array(update.utf8)).errors.map(\.rule.rawValue).sorted() == [
                "maxLength", "required",
            ])
        let changedNickname = update.replacingOccurrences(of: long, with: long + "x")
        #expect(try check(changedNickname, original: oldRecord).errors.map(\.rule.rawValue) == ["maxLength"])
    }

    @Test func theCLITakesTheOriginal() throws {
        // Covered end to end in the CLI tests; here the API contract on a malformed original.
        let report = try check(stored, original: "{")
        #expect(!report.valid && report.errors.map(\.rule.rawValue).contains("json"))
    }
}
