public import DCEEngine
import Foundation

/// The reference gateway's answers: a card for `card-create` (following `card-response`), nothing otherwise.
public enum ReferenceBackend {
    /// Answers a valid request.
    ///
    /// - Parameters:
    ///   - schema: The request schema.
    ///   - payload: The whole request, opened and validated.
    /// - Returns: The answer.
    @Sendable public static func answer(schema: String, payload: SchemaValue) -> SchemaValue {
        guard schema == "card-create", case .object(let members) = payload else { return .null }
        func string(_ key: String) -> String? {
            if case .string(let value)? = members.first(where: { $0.key == key })?.value { return value }
            return nil
        }
        let program = string("programName") ?? ""
        var card: [SchemaValue.Member] = [
            .init(key: "cardId", value: .string(UUID().uuidString.lowercased())),
            .init(key: "status", value: .string(program.contains("PHYSICAL") ? "APPLIED" : "ACTIVE")),
            .init(key: "cardType", value: .string(program.contains("PHYSICAL") ? "PHYSICAL" : "VIRTUAL")),
            .init(key: "programName", value: .string(program)),
            .init(key: "isPinSet", value: .boolean(string("cardPin") != nil)),
        ]
        if let currency = string("currency") { card.append(.init(key: "currency", value: .string(currency))) }
        return .object(card)
    }
}
