import Foundation

/// What the gateway remembers of the requests it accepted: each answer under its request id and the digest of
/// the request's body, long enough that no envelope can be processed twice.
///
/// Only accepted requests are remembered (like payment APIs, a request refused by validation leaves no trace, so
/// an invalid request sent first cannot "poison" its id). While a request is being processed its id is claimed,
/// so a second copy arriving at the same time is refused instead of processed. An answer is kept for the replay
/// window plus the clock skew from when it was given: any copy of its envelope arriving later is refused by age.
/// Memory is bounded by count and by bytes; when the bound is reached by answers that must still be kept, new
/// requests are refused (the caller answers 503) rather than an answer forgotten.
///
/// `@unchecked Sendable`: every stored property but the constants is read and written only under `lock`.
final class IdempotencyStore: @unchecked Sendable {
    /// What a request id may do.
    enum Claim: Equatable {
        /// The id is new: process the request, then ``complete(_:digest:answer:)`` or ``release(_:)``.
        case claimed
        /// The same request was answered before: send this answer again.
        case replay(Gateway.Answer)
        /// The id belongs to a different request.
        case conflict
        /// The same request is being processed right now.
        case inProgress
        /// Nothing more can be remembered until the oldest answer expires, in about this many seconds.
        case full(retryAfter: Int)
    }

    private struct Entry {
        var digest: [UInt8]
        /// `nil` while the request is being processed.
        var answer: Gateway.Answer?
        var expires: Date
        var bytes: Int
    }

    private let lock = NSLock()
    private let keep: TimeInterval
    private let maxEntries: Int
    private let maxBytes: Int
    private let now: @Sendable () -> Date
    private var entries: [String: Entry] = [:]
    /// Answered ids in the order they were answered (so in order of expiry), from `head` on.
    private var order: [(id: String, expires: Date)] = []
    private var head = 0
    private var bytes = 0
    /// What an entry costs beyond its id and answer: the digest, the dictionary's and the queue's storage.
    private static let overhead = 160

    init(keep: TimeInterval, maxEntries: Int, maxBytes: Int, now: @escaping @Sendable () -> Date) {
        self.keep = keep
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
        self.now = now
    }

    /// Claims `id` for the request whose body has `digest`, or says why not.
    func claim(_ id: String, digest: [UInt8]) -> Claim {
        lock.withLock {
            let time = now()
            expire(at: time)
            if let entry = entries[id] {
                guard entry.digest == digest else { return .conflict }
                return entry.answer.map { .replay($0) } ?? .inProgress
            }
            if entries.count >= maxEntries || bytes >= maxBytes {
                let oldest = head < order.count ? order[head].expires.timeIntervalSince(time) : 1
                return .full(retryAfter: max(1, Int(oldest.rounded(.up))))
            }
            let cost = id.utf8.count + Self.overhead
            entries[id] = Entry(digest: digest, answer: nil, expires: time, bytes: cost)
            bytes += cost
            return .claimed
        }
    }

    /// Remembers the answer to a claimed request.
    func complete(_ id: String, answer: Gateway.Answer) {
        lock.withLock {
            guard var entry = entries[id], entry.answer == nil else { return }
            let expires = now().addingTimeInterval(keep)
            entry.answer = answer
            entry.expires = expires
            entry.bytes += answer.body.count
            bytes += answer.body.count
            entries[id] = entry
            order.append((id, expires))
        }
    }

    /// Forgets a claimed request that was refused: its id stays free for the genuine request.
    func release(_ id: String) {
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
