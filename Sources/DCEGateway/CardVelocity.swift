public import Foundation

/// The card-testing limits: how many different cards one caller may present in a minute, and how many callers may
/// present one card in an hour.
///
/// Card testing runs stolen numbers through a create or tokenize endpoint to learn which are live: many cards from
/// one caller, or one card tried by many. A card is known by its fingerprint (an HMAC of its digits under a key
/// derived from the gateway's own, so every instance with the same keys agrees), never by its number. The windows
/// slide: a caller who presented 20 cards in the last 60 seconds may present one of those again at once, and a new
/// one when the oldest leaves the window. Only requests that would be served are counted: one refused (invalid,
/// replayed, over a limit) presents nothing.
public struct CardVelocity: Sendable, Hashable {
    /// The most different cards one caller may present in a minute; 0 turns the limit off. Default 20.
    public var maxCardsPerCallerPerMinute: Int
    /// The most different callers that may present one card in an hour; 0 turns the limit off. Default 5.
    public var maxCallersPerCardPerHour: Int

    /// The limits.
    ///
    /// - Parameters:
    ///   - maxCardsPerCallerPerMinute: Different cards per caller per minute (0: no limit).
    ///   - maxCallersPerCardPerHour: Different callers per card per hour (0: no limit).
    public init(maxCardsPerCallerPerMinute: Int = 20, maxCallersPerCardPerHour: Int = 5) {
        self.maxCardsPerCallerPerMinute = max(0, maxCardsPerCallerPerMinute)
        self.maxCallersPerCardPerHour = max(0, maxCallersPerCardPerHour)
    }

    /// The caller's window, in seconds.
    public static let callerWindow: TimeInterval = 60
    /// The card's window, in seconds.
    public static let cardWindow: TimeInterval = 3_600

    /// Which limit a refused request met: the reason `/metrics` and the access log give (never the answer, which is
    /// the same for both, so that a caller learns nothing of others).
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The caller presented too many different cards in a minute.
        case cardsPerCaller
        /// The card was presented by too many different callers in an hour.
        case callersPerCard
    }

    /// Whether `caller` may present `cards` now, given what the store holds inside the windows.
    ///
    /// - Parameters:
    ///   - cards: The fingerprints the request presents.
    ///   - caller: Who presents them.
    ///   - callerCards: The cards the caller presented within ``callerWindow``, each with when it last did.
    ///   - cardCallers: For each of `cards`, the callers that presented it within ``cardWindow``, with when.
    ///   - now: The gateway's clock.
    /// - Returns: ``CardVerdict/allowed``, or the limit met and the seconds until it may be tried again.
    public func judge(
        cards: [String], caller: String, callerCards: [String: Date], cardCallers: [String: [String: Date]], now: Date
    ) -> CardVerdict {
        let fresh = Set(cards).subtracting(callerCards.keys)
        if maxCardsPerCallerPerMinute > 0, callerCards.count + fresh.count > maxCardsPerCallerPerMinute {
            // The earliest a slot frees: when the oldest card leaves the window (a whole window for a request that
            // presents more cards than the limit on its own).
            let oldest = callerCards.values.min() ?? now
            return .refused(.cardsPerCaller, retryAfter: Self.seconds(until: oldest + Self.callerWindow, from: now))
        }
        if maxCallersPerCardPerHour > 0 {
            for card in Set(cards) {
                let callers = cardCallers[card] ?? [:]
                guard callers[caller] == nil, callers.count >= maxCallersPerCardPerHour else { continue }
                let oldest = callers.values.min() ?? now
                return .refused(.callersPerCard, retryAfter: Self.seconds(until: oldest + Self.cardWindow, from: now))
            }
        }
        return .allowed
    }

    private static func seconds(until date: Date, from now: Date) -> Int {
        max(1, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}

/// What the store says of a request's cards.
public enum CardVerdict: Sendable, Hashable {
    /// Served; the store noted the cards under the caller.
    case allowed
    /// Refused (HTTP 429): the limit met, and the seconds until the request may succeed (`Retry-After`).
    case refused(CardVelocity.Reason, retryAfter: Int)
}

/// The in-process record of who presented which card when, for ``MemoryStore``: entries leave when their window
/// has passed.
struct CardLedger {
    /// The cards each caller presented within the caller's window.
    private var cardsByCaller: [String: [String: Date]] = [:]
    /// The callers of each card within the card's window.
    private var callersByCard: [String: [String: Date]] = [:]
    private var lastSweep = Date.distantPast

    /// Judges a request's cards and, when allowed, notes them.
    mutating func present(_ cards: [String], caller: String, at now: Date, limits: CardVelocity) -> CardVerdict {
        sweep(now: now)
        let callerCards = (cardsByCaller[caller] ?? [:]).filter {
            now.timeIntervalSince($0.value) < CardVelocity.callerWindow
        }
        var cardCallers: [String: [String: Date]] = [:]
        for card in cards {
            cardCallers[card] = (callersByCard[card] ?? [:]).filter {
                now.timeIntervalSince($0.value) < CardVelocity.cardWindow
            }
        }
        let verdict = limits.judge(
            cards: cards, caller: caller, callerCards: callerCards, cardCallers: cardCallers, now: now)
        guard verdict == .allowed else { return verdict }
        var noted = callerCards
        for card in cards {
            noted[card] = now
            var callers = cardCallers[card] ?? [:]
            callers[caller] = now
            callersByCard[card] = callers
        }
        cardsByCaller[caller] = noted
        return verdict
    }

    /// Drops what every window has passed, once a minute.
    private mutating func sweep(now: Date) {
        guard now.timeIntervalSince(lastSweep) >= CardVelocity.callerWindow else { return }
        lastSweep = now
        cardsByCaller = cardsByCaller.compactMapValues { cards in
            let kept = cards.filter { now.timeIntervalSince($0.value) < CardVelocity.callerWindow }
            return kept.isEmpty ? nil : kept
        }
        callersByCard = callersByCard.compactMapValues { callers in
            let kept = callers.filter { now.timeIntervalSince($0.value) < CardVelocity.cardWindow }
            return kept.isEmpty ? nil : kept
        }
    }

    /// How many entries it holds, for the memory bound's test.
    var count: Int {
        cardsByCaller.values.reduce(0) { $0 + $1.count } + callersByCard.values.reduce(0) { $0 + $1.count }
    }
}
