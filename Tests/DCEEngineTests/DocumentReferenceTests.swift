import DCEEngine
import DCEExport
import Foundation
import Testing

/// `existsIn`: a field's value must be found in another document, checked when that document is given.
struct DocumentReferenceTests {
    private static let arts =
        #"[{"cardArtId": "art-1", "cardArt": "iVBORw0KGgo="}, {"cardArtId": "art-2", "cardArt": "iVBORw0KGgo="}]"#

    private func giftCards(_ ids: [String]) -> [UInt8] {
        let entries = ids.enumerated().map { offset, id in
            #"{"value": {"giftCardId": "g\#(offset)", "expiryDate": "2027-01-31", "cardArtId": "\#(id)", "status": "ACTIVE"}}"#
        }
        return Array(("[\n" + entries.joined(separator: ",\n") + "\n]").utf8)
    }

    @Test func aGiftCardsArtMustBeInTheCardArtsGiven() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["gift-cards-response"])
        let plain = try validator.prepare("gift-cards-response")
        let related = try plain.relating(["card-arts-response": JSONDocument(bytes: Array(Self.arts.utf8))])
        #expect(plain.validate(json: giftCards(["art-9"])).valid)  // without the other document: not checked
        #expect(related.validate(json: giftCards(["art-1", "art-2"])).valid)
        let report = related.validate(json: giftCards(["art-1", "art-9", "art-2", "ART-1"]))
        #expect(report.errors.map(\.path) == ["/1/value/cardArtId", "/3/value/cardArtId"])
        #expect(report.errors.map(\.rule) == [.existsIn, .existsIn])
        #expect(report.errors.first?.line == 3 && report.errors.first?.column == 73, "\(report.errors)")
        #expect(report.errors.first?.message == "Card art id has no match in card-arts-response at /*/cardArtId")
        #expect(!report.errors.contains { $0.message.contains("art-9") })  // the value is never shown
        let german = try validator.prepare("gift-cards-response", messages: .bundled(language: "de"))
            .relating(["card-arts-response": JSONDocument(bytes: Array(Self.arts.utf8))])
        #expect(
            german.validate(json: giftCards(["x"])).errors.first?.message
                == "Kartenmotiv-ID hat keine Entsprechung in card-arts-response unter /*/cardArtId")
    }

    @Test func aDocumentNoReferenceNamesIsRefused() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["gift-cards-response"])
        let error = try #require(throws: ValidatorError.self) {
            try validator.prepare("gift-cards-response").relating([
                "card-list-response": JSONDocument(bytes: Array("[]".utf8))
            ])
        }
        #expect(error.code == .unknownDocument)
        #expect(
            error.message
                == "'gift-cards-response' refers to no document of 'card-list-response' (it refers to card-arts-response)"
        )
    }

    /// Numbers by their lexeme, `*` over an object's members as over an array's items, and the other limits.
    @Test func anyReferenceOfTheCatalogueThroughTheSameMechanism() throws {
        let validator = try Fixtures.validator([
            "accounts":
                #"{"id": "accounts", "dataType": "Object", "fields": [{"key": "byName", "dataType": "Object", "additionalFields": true}]}"#,
            "payments": #"""
            {"id": "payments", "fields": [
              {"key": "account", "dataType": "Integer", "existsIn": {"schema": "accounts", "pointer": "/byName/*"},
               "messages": {"existsIn": "{name}: no such account"}},
              {"key": "tags", "dataType": "Array", "items": {"dataType": "String", "existsIn": {"schema": "accounts", "pointer": "/byName/*"}}}
            ]}
            """#,
        ])
        let accounts = try JSONDocument(bytes: Array(#"{"byName": {"main": 17, "savings": 23, "label": "gold"}}"#.utf8))
        let payments = try validator.prepare("payments").relating(["accounts": accounts])
        #expect(payments.validate(json: Array(#"{"account": 23, "tags": ["gold"]}"#.utf8)).valid)
        let report = payments.validate(json: Array(#"{"account": 24, "tags": ["gold", "17", null]}"#.utf8))
        // "17" is not the number 17; null is not compared (the items' own rules refuse it).
        #expect(report.errors.filter { $0.rule == .existsIn }.map(\.path) == ["/account", "/tags/1"])
        #expect(report.errors.first?.message == "account: no such account")
        // The limit on violations holds for these too.
        #expect(
            payments.limitingErrors(to: 1).validate(json: Array(#"{"account": 24, "tags": ["x"]}"#.utf8)).omittedErrors
                == 1)
    }

    @Test func aReferenceThatCannotHoldIsASchemaError() throws {
        let arts =
            #"{"id": "arts", "dataType": "Array", "items": {"fields": [{"key": "cardArtId", "dataType": "String"}]}}"#
        func problems(_ existsIn: String, dataType: String = "String") -> [String] {
            do {
                _ = try Fixtures.validator([
                    "arts": arts,
                    "s":
                        #"{"id": "s", "fields": [{"key": "v", "dataType": "\#(dataType)", "existsIn": \#(existsIn)}]}"#,
                ])
                return []
            } catch let error as SchemaError {
                return error.problems.map { "\($0.location.pointer) \($0.code): \($0.message)" }
            } catch {
                return ["\(error)"]
            }
        }
        #expect(problems(#"{"schema": "arts", "pointer": "/*/cardArtId"}"#) == [])
        #expect(
            problems(#"{"schema": "arts", "pointer": "/*/cardArtID"}"#)
                == [
                    "/fields/0/existsIn unknownField: 'existsIn' points at '/*/cardArtID', which is not a field of 'arts' (did you mean 'cardArtId'?)"
                ])
        #expect(
            problems(#"{"schema": "arts", "pointer": "/cardArtId"}"#)
                == [
                    "/fields/0/existsIn unknownField: 'existsIn' points at '/cardArtId', which is not a field of 'arts'"
                ])
        #expect(
            problems(#"{"schema": "arts", "pointer": "*/cardArtId"}"#).first?.hasPrefix(
                "/fields/0/existsIn/pointer invalidAttribute") == true)
        #expect(problems(#"{"schema": "arts"}"#).first?.contains("missing 'pointer'") == true)
        #expect(problems(#"{"schema": "nowhere", "pointer": "/*"}"#).count == 1)
        #expect(
            problems(#"{"schema": "arts", "pointer": "/*/cardArtId"}"#, dataType: "Object")
                == [
                    "/fields/0/existsIn inapplicableAttribute: 'existsIn' applies to String, Integer and Number fields, not Object"
                ])
    }

    /// `where`: seed 002's programs say how many more cards each allows (`allowableCards`); a program found with none
    /// left is refused with its own message, one not found with the usual one, in each language.
    @Test func aProgramWithNoCardsLeftIsRefusedWithItsOwnMessage() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["card-create"])
        let programs = try JSONDocument(
            bytes: Array(
                #"""
                {"programs": [{"programName": "SKRILL-VIRTUAL-MC-EEA", "allowableCards": 2},
                              {"programName": "SKRILL-PHYSICAL-MC-EEA", "allowableCards": 0},
                              {"programName": "SKRILL-VIRTUAL-MC-US", "allowableCards": "1"},
                              {"programName": "SKRILL-VIRTUAL-MC-EEA", "allowableCards": 0}]}
                """#.utf8))
        func errors(_ program: String, language: String = "en") throws -> [String] {
            let prepared = try validator.prepare(
                "card-create", context: ["region": "EU"], messages: .bundled(language: language)
            ).relating(["card-programs-response": programs])
            let payload = #"{"programName": "\#(program)", "currency": "EUR", "cardPin": "8264"}"#
            return prepared.validate(json: Array(payload.utf8)).errors.filter { $0.rule == .existsIn }.map(\.message)
        }
        // Listed twice, once with cards left: it may be issued.
        #expect(try errors("SKRILL-VIRTUAL-MC-EEA") == [])
        #expect(
            try errors("SKRILL-PHYSICAL-MC-EEA") == [
                "Program name is in card-programs-response at /programs/*/programName, but there its allowableCards is less than 1"
            ])
        #expect(
            try errors("SKRILL-PHYSICAL-MC-EEA", language: "de") == [
                "Programmname steht in card-programs-response unter /programs/*/programName, dort ist allowableCards aber kleiner als 1"
            ])
        // Not a number where a number is asked: the entry does not allow it either.
        #expect(try errors("SKRILL-VIRTUAL-MC-US").first?.contains("less than 1") == true)
        #expect(
            try errors("SKRILL-UNKNOWN") == [
                "Program name has no match in card-programs-response at /programs/*/programName"
            ])
    }

    @Test func aConditionOnAMemberThatIsNotThereIsASchemaError() throws {
        let programs =
            #"{"id": "programs", "fields": [{"key": "programs", "dataType": "Array", "items": {"fields": [{"key": "name", "dataType": "String"}, {"key": "left", "dataType": "Integer"}]}}]}"#
        func problems(_ existsIn: String) -> [String] {
            do {
                _ = try Fixtures.validator([
                    "programs": programs,
                    "s": #"{"id": "s", "fields": [{"key": "v", "dataType": "String", "existsIn": \#(existsIn)}]}"#,
                ])
                return []
            } catch let error as SchemaError {
                return error.problems.map { "\($0.location.pointer) \($0.code): \($0.message)" }
            } catch {
                return ["\(error)"]
            }
        }
        #expect(
            problems(
                #"{"schema": "programs", "pointer": "/programs/*/name", "where": {"member": "left", "minimum": 1}}"#)
                == [])
        #expect(
            problems(
                #"{"schema": "programs", "pointer": "/programs/*/name", "where": {"member": "lft", "minimum": 1}}"#)
                == [
                    "/fields/0/existsIn unknownField: 'existsIn' has a 'where' on 'lft', which is not a member beside the matched value in 'programs' (did you mean 'left'?)"
                ])
        #expect(
            problems(#"{"schema": "programs", "pointer": "/programs/*", "where": {"member": "left", "minimum": 1}}"#)
                .count
                == 1)
        #expect(
            problems(#"{"schema": "programs", "pointer": "/programs/*/name", "where": {"member": "left"}}"#)
                == [
                    "/fields/0/existsIn/where/minimum invalidAttribute: expected 'minimum': the least number the member may be"
                ])
        #expect(
            problems(
                #"{"schema": "programs", "pointer": "/programs/*/name", "where": {"member": "left", "minimum": "1"}}"#
            ).first?
            .hasPrefix("/fields/0/existsIn/where/minimum invalidAttribute: expected a number") == true)
    }

    @Test func theExportSaysWhatItCannotCheck() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["gift-cards-response"])
        let export = try #require(validator.schema("gift-cards-response")).exportJSONSchema()
        #expect(
            export.limitations.contains(
                "'cardArtId' must be found in a 'card-arts-response' document at /*/cardArtId (existsIn), when one is given."
            ))
    }
}
