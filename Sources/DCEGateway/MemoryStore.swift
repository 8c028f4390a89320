import DCEEnvelope
public import Foundation

/// The gateway's store in the process, for a single instance (the default): each accepted request's answer under
/// its request id and the digest of the request's body, long enough that no envelope can be processed twice, and
/// the latest catalogue. A restart forgets them; use ``PostgresStore`` for several instances.
///
/// Only accepted requests are remembered (like payment APIs, a request refused by validation leaves no trace, so
/// an invalid request sent first cannot "poison" its id). While a request is being processed its id is claimed,
/// so a second copy arriving at the same time is refused instead of processed. An answer is kept for the replay
/// window plus the clock skew from when it was given: any copy of its envelope arriving later is refused by age.
/// Memory is bounded by count and by bytes; when the bound is reached by answers that must still be kept, new
/// requests are refused (the caller answers 503) rather than an answer forgotten.
///
/// `@unchecked Sendable`: every stored property but the constants is read and written only under `lock`.
public final class MemoryStore: GatewayStore, @unchecked Sendable {
    private struct Entry {
        var digest: [UInt8]
        /// `nil` while the request is being processed.
        var answer: Gateway.Answer?
        var expires: Date
        var bytes: Int
    }

    private let lock = NSLock()
    private let maxEntries: Int
    private let maxBytes: Int
    private var catalogue: Gateway.Catalogue?
    private var entries: [String: Entry] = [:]
    /// Answered ids in the order they were answered (so in order of expiry), from `head` on.
    private var order: [(id: String, expires: Date)] = []
    private var head = 0
    private var bytes = 0
    private var cards = CardLedger()
    /// What an entry costs beyond its id and answer: the digest, the dictionary's and the queue's storage.
    private static let overhead = 160

    /// Creates an empty store.
    ///
    /// - Parameters:
    ///   - maxEntries: The most accepted requests remembered at once (``Gateway/Limits/rememberedRequests``).
    ///   - maxBytes: The most bytes of remembered answers (``Gateway/Limits/rememberedBytes``).
    public init(maxEntries: Int = Gateway.Limits().rememberedRequests, maxBytes: Int = Gateway.Limits().rememberedBytes)
    {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
    }

    /// What a request id may do.
    private enum Claim {
        case claimed
        case settled(IdempotencyOutcome)
    }

    public func once(_ request: IdempotentRequest, process: @escaping @Sendable () async -> Gateway.Answer) async
        -> IdempotencyOutcome
    {
        if case .settled(let outcome) = claim(request) { return outcome }
        let answer = await process()
        if answer.status == 200 {
            complete(request, answer: answer)
        } else {
            release(Self.slot(request))
        }
        return .processed(answer)
    }

    public func present(cards: [String], caller: String, at now: Date, limits: CardVelocity) -> CardVerdict {
        lock.withLock { self.cards.present(cards, caller: caller, at: now, limits: limits) }
    }

    public func publish(_ catalogue: Gateway.Catalogue) throws {
        try lock.withLock {
            if let latest = self.catalogue, try CatalogueVersion(catalogue.version) <= CatalogueVersion(latest.version)
            {
                throw CatalogueError(
                    code: .notNewer,
                    message:
                        "catalogue \(catalogue.version) is not newer than catalogue \(latest.version), which is served")
            }
            self.catalogue = catalogue
        }
    }

    public func latestCatalogueETag() -> String? { lock.withLock { catalogue?.etag } }

    public func latestCatalogue() -> Gateway.Catalogue? { lock.withLock { catalogue } }

    /// `false`: only the gateway it belongs to publishes to it.
    public var isShared: Bool { false }

    /// A request's slot: its caller's and its id (a caller's name holds no NUL).
    private static func slot(_ request: IdempotentRequest) -> String { request.caller + "\u{0}" + request.id }

    /// Claims the request's id, or says why not.
    private func claim(_ request: IdempotentRequest) -> Claim {
        lock.withLock {
            let time = request.received
            expire(at: time)
            let slot = Self.slot(request)
            if let entry = entries[slot] {
                guard entry.digest == request.digest else { return .settled(.conflict) }
                return .settled(entry.answer.map { .replayed($0) } ?? .inProgress)
            }
            if entries.count >= maxEntries || bytes >= maxBytes {
                let oldest = head < order.count ? order[head].expires.timeIntervalSince(time) : 1
                return .settled(.full(retryAfter: max(1, Int(oldest.rounded(.up)))))
            }
            let cost = slot.utf8.count + Self.overhead
            entries[slot] = Entry(digest: request.digest, answer: nil, expires: time, bytes: cost)
            bytes += cost
            return .claimed
        }
    }

    /// Remembers the answer to a claimed request.
    private func complete(_ request: IdempotentRequest, answer: Gateway.Answer) {
        lock.withLock {
            let id = Self.slot(request)
            guard var entry = entries[id], entry.answer == nil else { return }
            let expires = request.expires
            entry.answer = answer
            entry.expires = expires
            entry.bytes += answer.body.count
            bytes += answer.body.count
            entries[id] = entry
            order.append((id, expires))
        }
    }

    /// Forgets a claimed request that was refused: its id stays free for the genuine request.
    private func release(_ id: String) {
        lock.withLock {
            guard let entry = entries[id], entry.answer == nil else { return }
            entries[id] = nil
            bytes -= entry.bytes
        }
    }

    /// Drops the answers whose envelopes can no longer arrive within the replay window.
    private func expire(at time: Date) {
        while head < order.count, order[head].expires <= time {
            let (id, expires) = order[head]
            if let entry = entries[id], entry.answer != nil, entry.expires == expires {
                entries[id] = nil
                bytes -= entry.bytes
            }
            head += 1
        }
        if head > 1_024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
